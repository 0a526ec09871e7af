"""Mnemoscope SDK for Python agents (standard library only).

    from mnemoscope import Mnemoscope
    mnemo = Mnemoscope(url="http://127.0.0.1:3000")          # key from MNEMOSCOPE_API_KEY
    session = mnemo.acc("run-42", "triage-bot", title="Checkout 504s")
    session.turn("what broke?", "the CA bundle", {"goal_orientation": ["restore(checkout)"]})
    eid = mnemo.curator("triage-bot", "INC-7").emit("procedure", "Restart after a CA rotation.", "project",
                                                    evidence_refs=["message:INC-7"])
    print(mnemo.decision(eid, timeout=600))                   # waits for a reviewer when one must decide

Records go out in the background; see ``client.py`` for what happens when the server is down.
"""

from .client import (
    ClientStats,
    FieldError,
    Mnemoscope,
    RecordsRejected,
    RejectedRecord,
    new_event_id,
    record_label,
)
from .producers import AccSession, CuratorEmitter
from .webhooks import SIGNATURE_HEADER, sign_webhook, verify_webhook

__version__ = "0.1.0"
__all__ = [
    "AccSession",
    "ClientStats",
    "CuratorEmitter",
    "FieldError",
    "Mnemoscope",
    "RecordsRejected",
    "RejectedRecord",
    "SIGNATURE_HEADER",
    "new_event_id",
    "record_label",
    "sign_webhook",
    "verify_webhook",
]
