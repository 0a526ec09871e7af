"""Checking a Mnemoscope webhook call: ``Mnemoscope-Signature: t=<unix seconds>,v1=<hex HMAC-SHA256 of
"<t>.<body>">`` with the webhook's secret (Settings -> Webhooks)."""

from __future__ import annotations

import hashlib
import hmac
import time
from typing import Optional, Union

SIGNATURE_HEADER = "Mnemoscope-Signature"
TOLERANCE_SECONDS = 300


def sign_webhook(secret: str, body: Union[str, bytes], at: int) -> str:
    """The signature header's value for ``body`` sent at ``at`` (unix seconds), as the server makes it."""
    raw = body.encode("utf-8") if isinstance(body, str) else body
    mac = hmac.new(secret.encode("utf-8"), str(at).encode("ascii") + b"." + raw, hashlib.sha256).hexdigest()
    return "t=%d,v1=%s" % (at, mac)


def verify_webhook(
    secret: str,
    body: Union[str, bytes],
    header: Optional[str],
    *,
    now: Optional[float] = None,
    tolerance: float = TOLERANCE_SECONDS,
) -> bool:
    """True only when the header's HMAC matches the body exactly as received (pass the raw bytes, not re-encoded
    JSON) and its time is within ``tolerance`` seconds of ``now``. Compared in constant time."""
    parts = dict(p.strip().split("=", 1) for p in (header or "").split(",") if "=" in p)
    try:
        at = int(parts.get("t", ""))
    except ValueError:
        return False
    if abs((time.time() if now is None else now) - at) > tolerance:
        return False
    expected = sign_webhook(secret, body, at).split("v1=", 1)[1]
    return hmac.compare_digest(expected.encode("ascii"), parts.get("v1", "").encode("utf-8"))
