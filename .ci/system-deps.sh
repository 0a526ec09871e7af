#!/usr/bin/env bash
# Debian packages the test suite needs: Chromium for end-to-end tests, nginx for the cluster test, PostgreSQL
# server binaries for the tests that run on a real PostgreSQL, Python with venv and pip for the Python SDK's test.
# Installs only what is missing.
set -euo pipefail
need=()
[ -x /usr/bin/chromium ] || need+=(chromium)
[ -x /usr/sbin/nginx ] || need+=(nginx)
ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1 || need+=(postgresql)
/usr/bin/python3 -c 'import venv, ensurepip' >/dev/null 2>&1 || need+=(python3-venv)
[ ${#need[@]} -eq 0 ] && exit 0
if [ "$(id -u)" != 0 ]; then
  echo "Missing Debian packages: ${need[*]}. Install them (sudo apt-get install -y ${need[*]}) and run again." >&2
  exit 1
fi
echo "Installing Debian packages: ${need[*]}"
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
apt-get install -y -qq --no-install-recommends "${need[@]}" >/dev/null
