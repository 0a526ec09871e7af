#!/usr/bin/env bash
# The whole test suite (npm test): static checks (format, types, lint, import boundaries, line length),
# unit tests (pure, no database), integration tests on PGlite and on a private PostgreSQL, a production
# build, and end-to-end tests in Chromium against the production server.
set -euo pipefail
cd "$(dirname "$0")/.."
export NEXT_TELEMETRY_DISABLED=1
results=$(mktemp -d)

step() { printf '\n=== %s\n' "$*"; }

step "system packages"
bash .ci/system-deps.sh
[ -d node_modules ] || npm ci --no-audit --no-fund

step "format";            npx prettier --check . --log-level warn && echo "Format: ok"
step "type check";        npx tsc --noEmit
step "lint";              npx eslint .
step "import boundaries"; npx tsx .ci/check-boundaries.ts
step "line length";       npx tsx .ci/check-lines.ts

step "unit tests (pure: lib, SDK, demo generators, boundary rules)"
unit=(npx vitest run --project unit --reporter=default --reporter=json --outputFile="$results/unit.json")
if [ "$(id -u)" = 0 ] && unshare -m true 2>/dev/null; then
  # Run them where the PostgreSQL binaries are hidden (a private mount namespace): proof that they need none.
  unshare -m bash -c 'mount -t tmpfs none /usr/lib/postgresql && exec "$@"' unit "${unit[@]}"
else
  "${unit[@]}"
fi

step "integration tests (services, routers, route handlers on PGlite and PostgreSQL)"
npx vitest run --project integration --reporter=default --reporter=json --outputFile="$results/integration.json"

step "production build"
npx next build > "$results/build.log" 2>&1 || { cat "$results/build.log"; exit 1; }
tail -n 3 "$results/build.log"

step "end-to-end tests (Chromium against the production server)"
npx vitest run --config e2e/vitest.config.ts --reporter=default --reporter=json --outputFile="$results/e2e.json"

node -e '
  const fs = require("fs");
  let p = 0, f = 0;
  for (const n of ["unit", "integration", "e2e"]) {
    const r = JSON.parse(fs.readFileSync(process.argv[1] + "/" + n + ".json", "utf8"));
    p += r.numPassedTests;
    f += r.numFailedTests;
  }
  console.log("\ntests: " + p + " passed, " + f + " failed");
  process.exit(f ? 1 : 0);
' "$results"
