"""The SDK's sending rules against a scripted server on 127.0.0.1 (standard library only):
python -m unittest discover -s sdk/python/tests"""

import json
import subprocess
import sys
import textwrap
import threading
import time
import unittest
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

from mnemoscope import Mnemoscope, RecordsRejected, record_label, sign_webhook, verify_webhook


class Fake:
    """A server answering each POST with the next scripted (status, headers, body) or, when the script is empty,
    200 with every record accepted. Keeps the records of every request."""

    def __init__(self, script=None, answer=None):
        self.script = list(script or [])
        self.answer = answer
        self.requests = []
        self.paths = []
        fake = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *a):
                pass

            def do_POST(self):
                body = self.rfile.read(int(self.headers["Content-Length"])).decode()
                records = [json.loads(line) for line in body.split("\n") if line]
                fake.requests.append({"auth": self.headers["Authorization"], "records": records})
                fake.paths.append(self.path)
                if fake.answer:
                    status, headers, out = fake.answer(records)
                elif fake.script:
                    status, headers, out = fake.script.pop(0)
                else:
                    status, headers, out = (
                        200,
                        {},
                        {"results": [{"index": i, "status": "accepted"} for i in range(len(records))]},
                    )
                data = json.dumps(out).encode()
                self.send_response(status)
                for k, v in headers.items():
                    self.send_header(k, v)
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = "http://127.0.0.1:%d" % self.server.server_address[1]
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    def records(self):
        return [r for q in self.requests for r in q["records"]]

    def close(self):
        self.server.shutdown()
        self.server.server_close()


def turn(n):
    return {"session_id": "s", "agent": "a", "turn": n, "input": "i", "output": "o", "ccs": {}}


class SendingTest(unittest.TestCase):
    def client(self, fake, **o):
        o.setdefault("flush_at_exit", False)
        o.setdefault("backoff", (0.01, 0.05))
        return Mnemoscope(fake.url if fake else "http://127.0.0.1:9", "key-1", **o)

    def test_batches_in_the_background_and_counts_what_the_server_said(self):
        fake = Fake()
        m = self.client(fake, batch_size=2)
        for n in range(5):
            self.assertTrue(m.record("turn", turn(n)))
        stats = m.shutdown(5)
        self.assertEqual([len(q["records"]) for q in fake.requests], [2, 2, 1])
        self.assertEqual(fake.requests[0]["auth"], "Bearer key-1")
        self.assertEqual((stats.accepted, stats.dropped, stats.buffered), (5, 0, 0))
        fake.close()

    def test_sends_each_record_as_it_was_when_recorded(self):
        # An agent keeps one CCS and changes it after each turn: each turn is sent as it was then.
        fake = Fake()
        m = self.client(fake, batch_size=10)
        ccs = {"goal_orientation": ["triage(queue)"]}
        m.record("turn", {**turn(1), "ccs": ccs})
        ccs["goal_orientation"] = ["verify(throughput)"]
        ccs["constraints"] = ["no_restart(db)"]
        m.record("turn", {**turn(2), "ccs": ccs})
        cyclic = {"a": 1}
        cyclic["self"] = cyclic
        self.assertFalse(m.record("turn", {**turn(3), "ccs": cyclic}))
        m.shutdown(5)
        self.assertEqual(
            [r["data"]["ccs"] for r in fake.records()],
            [
                {"goal_orientation": ["triage(queue)"]},
                {"goal_orientation": ["verify(throughput)"], "constraints": ["no_restart(db)"]},
            ],
        )
        fake.close()

    def test_retries_a_503_after_its_retry_after(self):
        fake = Fake(script=[(503, {"Retry-After": "1"}, {"error": "restarting"})])
        m = self.client(fake, backoff=(0.01, 5), on_error=lambda e: None)
        m.record("turn", turn(1))
        t0 = time.monotonic()
        m.flush(10)
        self.assertGreaterEqual(time.monotonic() - t0, 0.9)
        s = m.stats()
        self.assertEqual((s.accepted, s.retries, s.requests), (1, 1, 2))
        self.assertIn("503", s.last_error)
        fake.close()

    def test_splits_a_batch_the_server_finds_too_large(self):
        stored = []

        def answer(records):
            if len(records) > 2:
                return 413, {}, {"error": "too large"}
            stored.extend(r["data"]["turn"] for r in records)
            return 200, {}, {"results": [{"status": "accepted"} for _ in records]}

        fake = Fake(answer=answer)
        m = self.client(fake, batch_size=8)
        for n in range(8):
            m.record("turn", turn(n))
        s = m.shutdown(5)
        self.assertEqual((s.accepted, stored), (8, list(range(8))))
        # 8 → 4 + 4 → 2 + 2 + 2 + 2: seven requests, none dropped.
        self.assertEqual((s.requests, s.dropped), (7, 0))
        fake.close()

    def test_passes_on_a_stored_records_warnings_naming_the_record(self):
        warning = {"path": "data.halucination", "message": "not a field of a turn; did you mean hallucination?"}
        fake = Fake(script=[(200, {}, {"results": [{"status": "accepted", "warnings": [warning]}]})])
        seen = []
        m = self.client(fake, on_warning=lambda envelope, warnings: seen.append((envelope["type"], warnings)))
        m.record("turn", dict(turn(1), halucination=0.9))
        m.flush(5)
        self.assertEqual(m.stats().accepted, 1)
        self.assertEqual([(t, [(w.path, w.message) for w in ws]) for t, ws in seen], [
            ("turn", [("data.halucination", warning["message"])]),
        ])
        m.shutdown(1)
        fake.close()
        # By default a logging warning, once per field however many records carry it.
        fake = Fake(answer=lambda records: (200, {}, {"results": [{"status": "accepted", "warnings": [warning]}
                                                                  for _ in records]}))
        quiet = self.client(fake)
        with self.assertLogs("mnemoscope", level="WARNING") as logs:
            for n in (1, 2):
                quiet.record("turn", dict(turn(n), halucination=0.9))
                quiet.flush(5)
        self.assertEqual(len(logs.records), 1)
        self.assertIn("turn s/1 stored, but data.halucination", logs.output[0])
        quiet.shutdown(1)
        fake.close()

    def test_reports_each_refused_record_with_its_fields_and_raises_them_when_asked(self):
        fake = Fake(
            script=[
                (
                    207,
                    {},
                    {
                        "results": [
                            {"status": "accepted"},
                            {
                                "status": "rejected",
                                "errors": [
                                    {"path": "data.memory_kind", "message": "required"},
                                    {"path": "data.content", "message": "must be a string"},
                                ],
                            },
                        ]
                    },
                )
            ]
        )
        seen = []
        m = self.client(fake, on_rejected=seen.append, raise_rejections=True)
        m.record("turn", turn(1))
        m.record("memory_event", {"content": 3})
        with self.assertRaises(RecordsRejected) as raised:
            m.flush(5)
        self.assertEqual([e.path for e in seen[0].errors], ["data.memory_kind", "data.content"])
        self.assertIn("memory_event: data.memory_kind: required; data.content: must be a string", str(raised.exception))
        # Each refused record is named as the server's answers name it.
        self.assertEqual(record_label({"type": "turn", "data": turn(1)}), "turn s/1")
        event = {"type": "memory_event", "data": {"event_id": "memevt_x"}}
        self.assertEqual(record_label(event), "memory_event memevt_x")
        self.assertEqual((m.stats().accepted, m.stats().rejected), (1, 1))
        # Refused before sending: an unknown type, data that is not an object.
        self.assertFalse(m.record("nonsense", {}))
        self.assertFalse(m.record("turn", ["not", "an", "object"]))
        self.assertEqual(m.stats().invalid, 2)
        m.shutdown(1)
        fake.close()

    def test_counts_a_conflict_and_reports_it_and_asks_to_supersede_when_told(self):
        conflict = {"status": "conflict", "fields": ["output"], "message": "another version is stored; it was kept"}
        fake = Fake(script=[(207, {}, {"results": [conflict]}), (200, {}, {"results": [{"status": "superseded"}]})])
        seen = []
        m = self.client(fake, on_rejected=seen.append)
        m.record("turn", turn(1))
        s = m.shutdown(5)
        self.assertEqual((s.conflicts, s.rejected), (1, 0))
        self.assertEqual(seen[0].errors[0].message, "another version is stored; it was kept")
        again = self.client(fake, supersede=True)
        again.record("turn", turn(1))
        self.assertEqual(again.shutdown(5).superseded, 1)
        self.assertEqual(fake.paths, ["/api/v1/ingest", "/api/v1/ingest?supersede=true"])
        fake.close()

    def test_holds_at_most_max_buffer_while_the_server_is_away_dropping_the_oldest(self):
        m = self.client(None, max_buffer=3, flush_interval=60, max_attempts=1)
        for n in range(5):
            m.record("turn", turn(n))
        self.assertEqual((m.stats().buffered, m.stats().dropped), (3, 2))
        s = m.shutdown(2)
        self.assertEqual(s.dropped, 5)
        self.assertIn("cannot reach", s.last_error)

    def test_says_which_server_it_could_not_reach_when_asked_for_a_decision(self):
        m = self.client(None)
        reach = r"^/api/v1/memory-events/evt-1: cannot reach http://127\.0\.0\.1:9 \("
        with self.assertRaisesRegex(RuntimeError, reach):
            m.decision("evt-1")

    def test_drops_a_batch_the_key_is_refused_for_and_says_why(self):
        fake = Fake(script=[(401, {}, {"error": "unknown or revoked API key"})])
        m = self.client(fake)
        m.record("turn", turn(1))
        s = m.shutdown(5)
        self.assertEqual((s.dropped, s.requests), (1, 1))
        self.assertIn("unknown or revoked API key", s.last_error)
        fake.close()

    def test_flushes_what_is_queued_when_the_program_exits(self):
        fake = Fake()
        code = textwrap.dedent("""
            import sys
            from mnemoscope import Mnemoscope
            m = Mnemoscope(sys.argv[1], "key-1", flush_interval=60)
            m.record("turn", {"session_id": "s", "agent": "a", "turn": 7, "input": "", "output": "", "ccs": {}})
        """)
        subprocess.run([sys.executable, "-c", code, fake.url], check=True, timeout=30)
        self.assertEqual([r["data"]["turn"] for r in fake.records()], [7])
        fake.close()


class WebhookTest(unittest.TestCase):
    body = '{"id":"d1","type":"proposal.decided","data":{"text":"é"}}'
    # Made by the server's own signer (lib/webhooks/contract.ts signWebhook) for this body and time.
    server_header = "t=1764000000,v1=08184e26c4eac4f776495822df032bd5f278ae29aa14708ec1a784754d77d0f3"

    def test_verifies_what_the_server_signs(self):
        self.assertEqual(sign_webhook("whsec_test", self.body, 1764000000), self.server_header)
        self.assertTrue(verify_webhook("whsec_test", self.body.encode(), self.server_header, now=1764000100))

    def test_refuses_another_secret_a_changed_body_a_stale_time_and_garbage(self):
        self.assertFalse(verify_webhook("whsec_other", self.body, self.server_header, now=1764000000))
        self.assertFalse(verify_webhook("whsec_test", self.body + " ", self.server_header, now=1764000000))
        self.assertFalse(verify_webhook("whsec_test", self.body, self.server_header, now=1764000301))
        for bad in (None, "", "t=x,v1=00", "v1=abc"):
            self.assertFalse(verify_webhook("whsec_test", self.body, bad, now=1764000000))


if __name__ == "__main__":
    unittest.main()
