#!/usr/bin/env bash
# Send memory to Mnemoscope with curl: NDJSON, one {"type", "data"} envelope per line.
#   MNEMOSCOPE_URL=http://127.0.0.1:3000 MNEMOSCOPE_API_KEY=... bash ingest.sh [session-id]
set -euo pipefail
URL="${MNEMOSCOPE_URL:-http://127.0.0.1:3000}"
SESSION="${1:-curl-example}"

# One record per line (NDJSON); each is assembled from short pieces to stay readable.
session='{"type":"session","data":{"id":"'"$SESSION"'","agent":"shell-agent",'
session+='"title":"Certificate expiry check","domain":"it_ops"}}'
turn='{"type":"turn","data":{"session_id":"'"$SESSION"'","agent":"shell-agent","turn":1,'
turn+='"input":"Which certificates expire this month?",'
turn+='"output":"api.example.com expires in 9 days; renewal job failed on DNS challenge.",'
turn+='"ccs":"goal_orientation: renew(api.example.com)\nfocal_entities: api.example.com acme_dns'
turn+='\nuncertainty_signal: dns_challenge_failing"}}'
event='{"type":"memory_event","data":{"event_id":"memevt_'"${SESSION//-/_}"'_acme",'
event+='"timestamp":"2026-11-21T10:05:00Z","source_agent":"shell-agent","task_id":"cert-check",'
event+='"memory_kind":"fact","content":"The ACME DNS challenge for api.example.com needs the'
event+=' _acme-challenge CNAME in the external zone.","suggested_scope":"project","sensitivity":"internal",'
event+='"confidence":"medium","evidence_refs":["url:https://wiki.example.com/tls/acme"],"ttl":"durable"}}'

printf '%s\n' "$session" "$turn" "$event" |
  curl --fail-with-body --silent --show-error --retry 3 --retry-all-errors \
    -H "Authorization: Bearer $MNEMOSCOPE_API_KEY" \
    -H "Content-Type: application/x-ndjson" \
    --data-binary @- "$URL/api/v1/ingest"
echo
