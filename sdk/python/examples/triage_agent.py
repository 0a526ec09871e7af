"""A small agent loop sending its memory to Mnemoscope with the Python SDK.

    pip install ./sdk/python
    MNEMOSCOPE_URL=http://127.0.0.1:3000 MNEMOSCOPE_API_KEY=... python sdk/python/examples/triage_agent.py [session-id]

Three ACC turns (input, output, the committed CCS, recalled and qualified artifacts), one memory event that
the curator writes and one that waits for a reviewer; then what the curator decided of each.
"""

import json
import sys

from mnemoscope import Mnemoscope

session_id = sys.argv[1] if len(sys.argv) > 1 else "python-sdk-example"
mnemo = Mnemoscope()  # MNEMOSCOPE_URL and MNEMOSCOPE_API_KEY from the environment

session = mnemo.acc(session_id, "triage-bot-py", title="Queue consumer lag after the broker upgrade", domain="it_ops")
session.artifact("rb_lag", "Runbook: consumer lag grows when prefetch is above 500 after a broker upgrade.")
ccs = {
    "goal_orientation": ["restore(consumer_throughput)"],
    "constraints": ["no_restart(broker)"],
    "focal_entities": ["service(orders-consumer)", "broker(rabbitmq)"],
}
session.turn(
    "Lag on orders-consumer since the broker upgrade.",
    "Checking prefetch first.",
    ccs,
    recalled=["rb_lag"],
    qualified=["rb_lag"],
)
ccs["focal_entities"].append("setting(prefetch=1000)")
session.turn("Prefetch is 1000.", "Lowering prefetch to 300 on one consumer.", ccs)
ccs["goal_orientation"] = ["verify(consumer_throughput)"]
session.turn("Lag falling on that consumer.", "Rolling the change to all consumers.", ccs, hallucination=0)

curator = mnemo.curator("triage-bot-py", "INC-2231")
written = curator.emit(
    "procedure",
    "After a RabbitMQ upgrade, lower consumer prefetch to 300 when lag grows.",
    "project",
    evidence_refs=["message:INC-2231"],
    confidence="high",
)
reviewed = curator.emit(
    "fact",
    "The orders team owns the orders-consumer deployment.",
    "team_memory",
    evidence_refs=["message:INC-2231"],
    confidence="high",
)

for event_id in (written, reviewed):
    d = mnemo.decision(event_id)  # sends what is queued first; add timeout=600 to wait for a reviewer
    if d is None:
        sys.exit("the server does not know %s: was it refused? see the warnings above" % event_id)
    print(json.dumps({"event_id": event_id, "disposition": d["disposition"], "final": d["final"]}))
stats = mnemo.shutdown()
print(
    "accepted %d, already stored %d, rejected %d, dropped %d"
    % (stats.accepted, stats.duplicates, stats.rejected, stats.dropped)
)
