#!/usr/bin/env bash
# Send memory to Mnemoscope with curl: NDJSON, one {"type", "data"} envelope per line.
#   MNEMOSCOPE_URL=http://127.0.0.1:3000 MNEMOSCOPE_API_KEY=... bash ingest.sh [session-id]
set -euo pipefail
URL="${MNEMOSCOPE_URL:-http://127.0.0.1:3000}"
SESSION="${1:-curl-example}"

curl --fail-with-body --silent --show-error --retry 3 --retry-all-errors \
  -H "Authorization: Bearer $MNEMOSCOPE_API_KEY" \
  -H "Content-Type: application/x-ndjson" \
  --data-binary @- "$URL/api/v1/ingest" <<NDJSON
{"type":"session","data":{"id":"$SESSION","agent":"shell-agent","title":"Certificate expiry check","domain":"it-ops"}}
{"type":"turn","data":{"session_id":"$SESSION","agent":"shell-agent","turn":1,"input":"Which certificates expire this month?","output":"api.example.com expires in 9 days; renewal job failed on DNS challenge.","ccs":"goal_orientation: renew(api.example.com)\nfocal_entities: api.example.com acme_dns\nuncertainty_signal: dns_challenge_failing"}}
{"type":"memory_event","data":{"event_id":"memevt_${SESSION//-/_}_acme","timestamp":"2026-11-21T10:05:00Z","source_agent":"shell-agent","task_id":"cert-check","memory_kind":"fact","content":"The ACME DNS challenge for api.example.com needs the _acme-challenge CNAME in the external zone.","suggested_scope":"project","sensitivity":"internal","confidence":"medium","evidence_refs":["url:https://wiki.example.com/tls/acme"],"ttl":"durable"}}
NDJSON
echo
