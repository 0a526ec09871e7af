#!/usr/bin/env python3
"""Send an agent's memory to Mnemoscope with the Python standard library only.

    MNEMOSCOPE_URL=http://127.0.0.1:3000 MNEMOSCOPE_API_KEY=... python3 ingest.py [session-id]

One POST /api/v1/ingest per batch: NDJSON, one {"type", "data"} envelope per line. The answer has
one result per record (accepted, duplicate or rejected with field errors); 207 means some were
rejected. Records carry their own ids, so re-sending after a timeout stores nothing twice.
"""
import json
import os
import sys
import time
import urllib.error
import urllib.request

URL = os.environ.get("MNEMOSCOPE_URL", "http://127.0.0.1:3000").rstrip("/")
KEY = os.environ["MNEMOSCOPE_API_KEY"]
SESSION = sys.argv[1] if len(sys.argv) > 1 else "python-example"


def send(records, attempts=5):
    body = "\n".join(json.dumps(r) for r in records).encode("utf-8")
    for attempt in range(1, attempts + 1):
        req = urllib.request.Request(
            URL + "/api/v1/ingest",
            data=body,
            method="POST",
            headers={"Authorization": "Bearer " + KEY, "Content-Type": "application/x-ndjson"},
        )
        try:
            with urllib.request.urlopen(req, timeout=10) as res:
                return json.load(res)
        except urllib.error.HTTPError as e:  # 207 (some records rejected) is a success: see the results
            if e.code in (429, 500, 502, 503, 504) and attempt < attempts:
                time.sleep(float(e.headers.get("Retry-After") or 2 ** attempt / 4))
                continue
            raise SystemExit("%d from Mnemoscope: %s" % (e.code, e.read().decode()))
        except urllib.error.URLError as e:
            if attempt == attempts:
                raise SystemExit("cannot reach %s: %s" % (URL, e.reason))
            time.sleep(2 ** attempt / 4)


records = [
    {"type": "session", "data": {"id": SESSION, "agent": "py-agent", "title": "Disk filling up on db-3",
                                 "domain": "it_ops"}},
    {"type": "artifact", "data": {"id": SESSION + "/df", "session_id": SESSION, "kind": "observation",
                                  "content": "df -h on db-3: /var/lib/postgresql 97% used, WAL directory 41 GB"}},
    {"type": "turn", "data": {
        "session_id": SESSION, "agent": "py-agent", "turn": 1,
        "input": "Alert: db-3 disk 97% full.",
        "output": "WAL is 41 GB: a replication slot is probably holding it. Checking pg_replication_slots.",
        "ccs": {"goal_orientation": ["free_disk(db-3)"], "focal_entities": ["db-3", "wal"],
                "uncertainty_signal": ["hypothesis(stale_replication_slot)"]},
        "recalled": [SESSION + "/df"], "qualified": [SESSION + "/df"],
        "footprint": {"ccs": 120, "transcript": 300}, "hallucination": 0.02, "drift": 0.0}},
    {"type": "turn", "data": {
        "session_id": SESSION, "agent": "py-agent", "turn": 2,
        "input": "pg_replication_slots shows slot analytics_old inactive since May.",
        "output": "Dropped the inactive slot analytics_old; WAL shrank to 2 GB, disk at 61%.",
        "ccs": ("goal_orientation: confirm(disk_ok)\n"
                "episodic_trace: drop(slot analytics_old) wal(41GB->2GB)\n"
                "constraints: keep(active_slots)"),
        "recalled": [], "qualified": [], "hallucination": 0.01, "drift": 0.05}},
    {"type": "memory_event", "data": {
        "event_id": "memevt_" + SESSION.replace("-", "_") + "_slot",
        "timestamp": "2026-11-21T10:00:00Z", "source_agent": "py-agent", "task_id": "INC-db3-disk",
        "memory_kind": "procedure",
        "content": ("When WAL grows on a primary, look for inactive replication slots first; "
                    "dropping a stale slot frees the WAL."),
        "suggested_scope": "project", "sensitivity": "internal", "confidence": "high",
        "evidence_refs": ["message:INC-db3-disk"], "ttl": "durable"}},
]

summary = send(records)
for r in summary["results"]:
    if r["status"] == "rejected":
        reasons = "; ".join(e["path"] + ": " + e["message"] for e in r["errors"])
        print("rejected record %d: %s" % (r["index"], reasons), file=sys.stderr)
print("session %s: %d accepted, %d already stored, %d rejected"
      % (SESSION, summary["accepted"], summary["duplicates"], summary["rejected"]))
sys.exit(1 if summary["rejected"] else 0)
