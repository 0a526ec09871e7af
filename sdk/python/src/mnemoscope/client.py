"""The Mnemoscope client for Python agents: queue records, and a background thread sends them in
batches to ``POST /api/v1/ingest``. Built so that observability never hurts the agent, with the
same rules as the TypeScript SDK:

- ``record()`` never blocks and never raises for the server's sake; it checks the envelope's shape
  and queues (the server names every offending field of a record it refuses).
- The queue is bounded (``max_buffer``); when full, the oldest queued record is dropped and counted.
- A batch that fails for a transient reason (network error, timeout, 408, 429, 5xx) is retried with
  exponential backoff and full jitter, honouring ``Retry-After``, up to ``max_attempts``; then it is
  dropped and counted. Retries are idempotent: every record carries its id, and the server answers
  ``duplicate`` for what it already holds.
- 413 splits the batch in two; a 207 reports each refused record to ``on_rejected`` (default: a
  logged warning; with ``raise_rejections=True`` the next ``flush()`` raises them); 401/403 drop the
  batch and say why in ``last_error``.
- Pending records are flushed when the interpreter exits (``atexit``), waiting at most
  ``exit_timeout`` seconds.

Standard library only (urllib, json, threading).
"""

from __future__ import annotations

import atexit
import json
import logging
import os
import random
import threading
import time
import urllib.error
import urllib.parse
import urllib.request
import uuid
from collections import deque
from dataclasses import asdict, dataclass, field
from typing import TYPE_CHECKING, Any, Callable, Deque, Dict, List, Mapping, Optional, Set, Tuple

if TYPE_CHECKING:
    from .producers import AccSession, CuratorEmitter

log = logging.getLogger("mnemoscope")

RECORD_TYPES = (
    "session",
    "turn",
    "artifact",
    "memory_event",
    "ucs_state",
    "ucs_index",
    "ucs_export",
    "ucs_action",
    "ucs_pp_history",
    "ucs_knowledge",
    "ucs_status",
    "ucs_consult_samples",
    "annotation",
)

Envelope = Dict[str, Any]


def new_event_id() -> str:
    """``memevt_`` and 32 random hex digits, as the Agentlas schema wants."""
    return "memevt_" + uuid.uuid4().hex


@dataclass
class FieldError:
    path: str
    message: str


@dataclass
class RejectedRecord:
    envelope: Envelope
    errors: List[FieldError]
    #: ``local``: refused before sending; ``server``: the server's answer.
    by: str


def record_label(envelope: Envelope) -> str:
    """A record as the server's answers name it: ``turn inc-42/3``, ``memory_event memevt_…``, ``session inc-42``."""
    kind = str(envelope.get("type"))
    data = envelope.get("data")
    if not isinstance(data, dict):
        return kind
    if kind == "turn" and "session_id" in data:
        return "turn %s/%s" % (data.get("session_id"), data.get("turn", "?"))
    key = data.get("event_id", data.get("id"))
    return kind if key is None else "%s %s" % (kind, key)


class RecordsRejected(Exception):
    """Raised by ``flush()`` when ``raise_rejections`` is set and records were refused since the last flush."""

    def __init__(self, rejected: List[RejectedRecord]):
        self.rejected = rejected
        lines = [
            "%s: %s"
            % (record_label(r.envelope), "; ".join("%s: %s" % (e.path or "(record)", e.message) for e in r.errors))
            for r in rejected[:10]
        ]
        more = "" if len(rejected) <= 10 else " (and %d more)" % (len(rejected) - 10)
        super().__init__("%d record(s) refused%s:\n  %s" % (len(rejected), more, "\n  ".join(lines)))


@dataclass
class ClientStats:
    #: Waiting to be sent, including the batch in flight.
    buffered: int = 0
    #: Records the server stored.
    accepted: int = 0
    #: Records the server already had (a retry after a lost answer, or a re-send).
    duplicates: int = 0
    #: Records the server refused.
    rejected: int = 0
    #: Records whose id held another version, which the server kept (``supersede`` off).
    conflicts: int = 0
    #: Records that replaced another version under their id (``supersede`` on).
    superseded: int = 0
    #: Records refused before sending.
    invalid: int = 0
    #: Records given up on: buffer full, attempts exhausted, key refused, or still queued at exit.
    dropped: int = 0
    requests: int = 0
    retries: int = 0
    last_error: Optional[str] = None


class _Outcome:
    DONE = "done"
    SPLIT = "split"
    RETRY = "retry"
    FATAL = "fatal"


class Mnemoscope:
    """A client for one Mnemoscope server and project (the API key's)."""

    def __init__(
        self,
        url: Optional[str] = None,
        api_key: Optional[str] = None,
        *,
        batch_size: int = 500,
        flush_interval: float = 1.0,
        max_buffer: int = 10_000,
        max_attempts: int = 8,
        timeout: float = 10.0,
        backoff: Tuple[float, float] = (0.25, 30.0),
        flush_at_exit: bool = True,
        exit_timeout: float = 5.0,
        on_rejected: Optional[Callable[[RejectedRecord], None]] = None,
        on_error: Optional[Callable[[Exception], None]] = None,
        on_warning: Optional[Callable[[Envelope, List[FieldError]], None]] = None,
        raise_rejections: bool = False,
        supersede: bool = False,
    ) -> None:
        for name, value in (
            ("batch_size", batch_size),
            ("flush_interval", flush_interval),
            ("max_buffer", max_buffer),
            ("max_attempts", max_attempts),
            ("timeout", timeout),
        ):
            if not (isinstance(value, (int, float)) and value > 0):
                raise ValueError("Mnemoscope: %s must be a positive number, got %r" % (name, value))
        self.url = (url or os.environ.get("MNEMOSCOPE_URL") or "http://127.0.0.1:3000").rstrip("/")
        self._key = api_key or os.environ.get("MNEMOSCOPE_API_KEY")
        self._batch_size = int(batch_size)
        self._interval = float(flush_interval)
        self._max_buffer = int(max_buffer)
        self._max_attempts = int(max_attempts)
        self._timeout = float(timeout)
        self._backoff = backoff
        self._exit_timeout = exit_timeout
        self._on_rejected = on_rejected or self._warn_rejected
        self._on_error = on_error or self._warn_error
        # A record stored with warnings: fields its type does not know that look like slips for ones it does.
        self._on_warning = on_warning or self._warn_stored
        self._warned: Set[Tuple[str, str]] = set()
        self._raise_rejections = raise_rejections
        # A record sent again under its id with other content replaces the stored version (kept in its history);
        # without it, such a record is a conflict: counted, reported to on_rejected, the stored version kept.
        self._supersede = supersede
        self._unraised: List[RejectedRecord] = []
        self._queue: Deque[Envelope] = deque()
        self._in_flight = 0
        self._lock = threading.Lock()
        self._wake = threading.Event()
        self._idle = threading.Condition(self._lock)
        self._closing = False
        self._stats = ClientStats()
        self._last_warned = 0.0
        self._thread = threading.Thread(target=self._run, name="mnemoscope-sender", daemon=True)
        self._thread.start()
        self._exit_hook = self._at_exit if flush_at_exit else None
        if self._exit_hook:
            atexit.register(self._exit_hook)
        if not self._key:
            self._fail(RuntimeError("no API key: pass api_key or set MNEMOSCOPE_API_KEY; records will be dropped"))

    # ------------------------------------------------------------------ public

    def record(
        self, type: str, data: Mapping[str, Any], *, agent: Optional[str] = None, source: Optional[str] = None
    ) -> bool:
        """Queues one record; False when it was refused (bad shape, or the client is shut down). Never raises."""
        envelope: Envelope = {"type": type, "data": data}
        if agent is not None:
            envelope["agent"] = agent
        if source is not None:
            envelope["source"] = source
        with self._lock:
            if self._closing:
                self._stats.dropped += 1
                return False
        errors = _shape_errors(envelope)
        if not errors:
            try:
                # A copy as it is now, as it will be sent: the agent may change its objects (a CCS it keeps
                # updating) before the batch goes.
                envelope = json.loads(json.dumps(envelope, default=str, ensure_ascii=False))
            except (TypeError, ValueError) as e:
                errors = [FieldError("data", "cannot be sent as JSON: %s" % e)]
        if errors:
            with self._lock:
                self._stats.invalid += 1
            self._reject(RejectedRecord(envelope, errors, "local"))
            return False
        with self._lock:
            self._queue.append(envelope)
            if len(self._queue) + self._in_flight > self._max_buffer:
                self._queue.popleft()
                self._stats.dropped += 1
                full = True
            else:
                full = False
            if len(self._queue) >= self._batch_size:
                self._wake.set()
        if full:
            self._fail(
                RuntimeError(
                    "buffer full (%d records): dropping the oldest; is %s reachable?" % (self._max_buffer, self.url)
                )
            )
        return True

    def flush(self, timeout: Optional[float] = None) -> None:
        """Sends everything queued now; returns when the queue is empty or after ``timeout`` seconds. With
        ``raise_rejections``, raises ``RecordsRejected`` for the records refused since the last flush."""
        self._drain(timeout)
        if self._raise_rejections:
            with self._lock:
                rejected, self._unraised = self._unraised, []
            if rejected:
                raise RecordsRejected(rejected)

    def _drain(self, timeout: Optional[float]) -> None:
        deadline = None if timeout is None else time.monotonic() + timeout
        with self._idle:
            self._wake.set()
            while self._queue or self._in_flight:
                left = None if deadline is None else deadline - time.monotonic()
                if left is not None and left <= 0:
                    break
                self._idle.wait(left if left is not None else 0.5)
                self._wake.set()

    def shutdown(self, timeout: Optional[float] = None) -> ClientStats:
        """Flushes (at most ``timeout``, default ``exit_timeout``) and stops; what is left unsent counts as dropped."""
        if self._exit_hook:
            atexit.unregister(self._exit_hook)
            self._exit_hook = None
        try:
            self._drain(self._exit_timeout if timeout is None else timeout)
        finally:
            with self._lock:
                self._closing = True
                self._stats.dropped += len(self._queue)
                self._queue.clear()
            self._wake.set()
        return self.stats()

    def stats(self) -> ClientStats:
        with self._lock:
            s = ClientStats(**asdict(self._stats))
            s.buffered = len(self._queue) + self._in_flight
            return s

    def state(self, session_id: str, turn: Optional[int] = None) -> Optional[Dict[str, Any]]:
        """The latest CCS of a session (or the one at ``turn``): what an agent resumes from. None when absent."""
        q = "" if turn is None else "?turn=%d" % turn
        return self._get("/api/v1/sessions/%s/state%s" % (urllib.parse.quote(session_id, safe=""), q))

    def decision(self, event_id: str, timeout: float = 0) -> Optional[Dict[str, Any]]:
        """What became of a memory event this agent sent (written, proposed, approved with ``edited`` fields and the
        ``entry`` as stored, rejected with the reason, ``duplicate_of``, discarded). Sends what is queued first, then
        waits up to ``timeout`` seconds for a pending review, in long polls the server ends as soon as a reviewer
        decides. None when the server holds no such event. Raises when the server cannot answer."""
        deadline = time.monotonic() + timeout
        if self._queue or self._in_flight:
            self._drain(max(timeout, self._timeout))
        while True:
            wait = int(max(0, min(50, round(deadline - time.monotonic()))))
            path = "/api/v1/memory-events/%s%s" % (
                urllib.parse.quote(event_id, safe=""),
                "?wait=%d" % wait if wait else "",
            )
            d = self._get(path, timeout=wait + self._timeout)
            if d is None or d.get("final") or time.monotonic() >= deadline - 1:
                return d

    # ------------------------------------------------------------------ helpers

    def acc(self, id: str, agent: str, **session: Any) -> "AccSession":
        """An ACC session: declares it (``title``, ``domain``, ``metadata``), then ``turn()`` once per turn."""
        from .producers import AccSession

        return AccSession(self, id, agent, **session)

    def curator(self, source_agent: str, task_id: str, **scope: Any) -> "CuratorEmitter":
        """A curator emitter for one worker agent and task (``project_id``, ``agent_repo``, ``team_id`` optional)."""
        from .producers import CuratorEmitter

        return CuratorEmitter(self, source_agent, task_id, **scope)

    def annotate(self, target: str, **fields: Any) -> str:
        """Scores or comments on a turn, term, artifact, proposal or entry (an automated judge). Returns its id."""
        annotation_id = fields.pop("id", None) or str(uuid.uuid4())
        self.record("annotation", {"id": annotation_id, "target": target, **fields})
        return annotation_id

    # ------------------------------------------------------------------ sending

    def _run(self) -> None:
        while True:
            self._wake.wait(self._interval)
            self._wake.clear()
            while True:
                with self._lock:
                    if not self._queue:
                        self._idle.notify_all()
                        break
                    batch = [self._queue.popleft() for _ in range(min(self._batch_size, len(self._queue)))]
                    self._in_flight = len(batch)
                try:
                    self._send(batch)
                except Exception as e:  # never let the sender thread die
                    self._fail(e)
                finally:
                    with self._lock:
                        self._in_flight = 0
                        self._idle.notify_all()
            with self._lock:
                if self._closing and not self._queue:
                    return

    def _send(self, batch: List[Envelope]) -> None:
        attempt = 1
        while True:
            kind, message, retry_after = self._post(batch)
            if kind == _Outcome.DONE:
                return
            if kind == _Outcome.SPLIT:
                half = (len(batch) + 1) // 2
                self._send(batch[:half])
                self._send(batch[half:])
                return
            if kind == _Outcome.FATAL or attempt >= self._max_attempts:
                with self._lock:
                    self._stats.dropped += len(batch)
                after = " after %d attempts" % attempt if kind == _Outcome.RETRY else ""
                self._fail(RuntimeError("%s; dropped %d record(s)%s" % (message, len(batch), after)))
                return
            with self._lock:
                self._stats.retries += 1
            self._fail(RuntimeError("%s; retrying (attempt %d of %d)" % (message, attempt + 1, self._max_attempts)))
            base, cap = self._backoff
            wait = min(cap, max(random.random() * min(cap, base * 2 ** (attempt - 1)), retry_after or 0))
            time.sleep(wait)
            attempt += 1

    def _post(self, batch: List[Envelope]) -> Tuple[str, str, Optional[float]]:
        if not self._key:
            return _Outcome.FATAL, "no API key", None
        body = "\n".join(json.dumps(e, default=str, ensure_ascii=False) for e in batch).encode("utf-8")
        with self._lock:
            self._stats.requests += 1
        req = urllib.request.Request(
            self.url + "/api/v1/ingest" + ("?supersede=true" if self._supersede else ""),
            data=body,
            method="POST",
            headers={"Authorization": "Bearer " + self._key, "Content-Type": "application/x-ndjson"},
        )
        try:
            with urllib.request.urlopen(req, timeout=self._timeout) as res:
                status, text, headers = res.status, res.read().decode("utf-8", "replace"), res.headers
        except urllib.error.HTTPError as e:
            status, text, headers = e.code, e.read().decode("utf-8", "replace"), e.headers
        except (urllib.error.URLError, OSError) as e:
            reason = getattr(e, "reason", e)
            return _Outcome.RETRY, "cannot reach %s: %s" % (self.url, reason), None
        answer = _json(text)
        said = (answer or {}).get("error") if isinstance(answer, dict) else None
        said = said or text[:200] or str(status)
        if status in (200, 207):
            results = answer.get("results", []) if isinstance(answer, dict) else []
            for i, envelope in enumerate(batch):
                r = results[i] if i < len(results) else None
                st = r.get("status") if isinstance(r, dict) else None
                warnings = r.get("warnings") if isinstance(r, dict) else None
                if warnings:
                    found = [FieldError(w.get("path", ""), w.get("message", "")) for w in warnings]
                    try:
                        self._on_warning(envelope, found)
                    except Exception:
                        pass
                with self._lock:
                    if st == "accepted":
                        self._stats.accepted += 1
                    elif st == "duplicate":
                        self._stats.duplicates += 1
                    elif st == "superseded":
                        self._stats.superseded += 1
                    elif st == "conflict":
                        self._stats.conflicts += 1
                    else:
                        self._stats.rejected += 1
                if st == "conflict" and isinstance(r, dict):
                    self._reject(RejectedRecord(envelope, [FieldError("", str(r.get("message", "")))], "server"))
                elif st not in ("accepted", "duplicate", "superseded"):
                    errs = (
                        r.get("errors", [])
                        if isinstance(r, dict)
                        else [{"path": "", "message": "no result for this record in the answer"}]
                    )
                    self._reject(
                        RejectedRecord(
                            envelope, [FieldError(e.get("path", ""), e.get("message", "")) for e in errs], "server"
                        )
                    )
            return _Outcome.DONE, "", None
        if status == 413 and len(batch) > 1:
            return _Outcome.SPLIT, "", None
        message = "%d from %s/api/v1/ingest: %s" % (status, self.url, said)
        if status in (408, 429) or status >= 500:
            retry_after = _float(headers.get("Retry-After")) or _float(
                (answer or {}).get("retryAfterSeconds") if isinstance(answer, dict) else None
            )
            return _Outcome.RETRY, message, retry_after
        if status in (400, 413):
            for envelope in batch:
                with self._lock:
                    self._stats.rejected += 1
                self._reject(RejectedRecord(envelope, [FieldError("", said)], "server"))
            return _Outcome.DONE, "", None
        return _Outcome.FATAL, message, None

    def _get(self, path: str, timeout: Optional[float] = None) -> Optional[Dict[str, Any]]:
        if not self._key:
            raise RuntimeError("no API key: pass api_key or set MNEMOSCOPE_API_KEY")
        req = urllib.request.Request(self.url + path, headers={"Authorization": "Bearer " + self._key})
        try:
            with urllib.request.urlopen(req, timeout=timeout or self._timeout) as res:
                answer: Dict[str, Any] = json.loads(res.read().decode("utf-8"))
                return answer
        except urllib.error.HTTPError as e:
            if e.code == 404:
                return None
            raise RuntimeError("%s: HTTP %d %s" % (path, e.code, e.read().decode("utf-8", "replace")[:300])) from None
        except urllib.error.URLError as e:
            raise RuntimeError("%s: cannot reach %s (%s)" % (path, self.url, e.reason)) from e

    # ------------------------------------------------------------------ reporting

    def _reject(self, r: RejectedRecord) -> None:
        if self._raise_rejections:
            with self._lock:
                self._unraised.append(r)
        try:
            self._on_rejected(r)
        except Exception:  # a throwing callback must not take the agent down
            pass

    def _fail(self, e: Exception) -> None:
        with self._lock:
            self._stats.last_error = str(e)
        try:
            self._on_error(e)
        except Exception:
            pass

    def _warn_rejected(self, r: RejectedRecord) -> None:
        log.warning(
            "mnemoscope: %s refused%s: %s",
            record_label(r.envelope),
            " before sending" if r.by == "local" else "",
            "; ".join("%s: %s" % (e.path or "(record)", e.message) for e in r.errors),
        )

    def _warn_stored(self, envelope: Envelope, warnings: List[FieldError]) -> None:
        # Once per kind of record and field: an agent sends the same fields on every record.
        kind = str(envelope.get("type"))
        fresh = [w for w in warnings if (kind, w.path) not in self._warned]
        if not fresh:
            return
        self._warned.update((kind, w.path) for w in fresh)
        log.warning(
            "mnemoscope: %s stored, but %s (said once per field)",
            record_label(envelope),
            "; ".join("%s: %s" % (w.path, w.message) for w in fresh),
        )

    def _warn_error(self, e: Exception) -> None:
        now = time.monotonic()
        if now - self._last_warned < 30:
            return
        self._last_warned = now
        log.warning("mnemoscope: %s", e)

    def _at_exit(self) -> None:
        self.shutdown(self._exit_timeout)


def _shape_errors(envelope: Envelope) -> List[FieldError]:
    errors: List[FieldError] = []
    if envelope["type"] not in RECORD_TYPES:
        errors.append(FieldError("type", "must be one of %s" % ", ".join(RECORD_TYPES)))
    if not isinstance(envelope["data"], Mapping):
        errors.append(FieldError("data", "must be an object"))
    return errors


def _json(text: str) -> Any:
    try:
        return json.loads(text)
    except ValueError:
        return None


def _float(v: Any) -> Optional[float]:
    try:
        f = float(v)
    except (TypeError, ValueError):
        return None
    return f if f > 0 else None
