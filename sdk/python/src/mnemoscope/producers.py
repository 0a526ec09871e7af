"""Helpers for the producers Mnemoscope knows: an ACC loop (a session of turns, each with its CCS and
the artifacts it recalled and qualified) and a memory curator's emitter (memory events in the
Agentlas schema). Each builds records with stable ids, so a re-sent record is a duplicate."""

from __future__ import annotations

from datetime import datetime, timezone
from typing import TYPE_CHECKING, Any, Dict, Mapping, Optional, Sequence, Union

from .client import new_event_id

if TYPE_CHECKING:
    from .client import Mnemoscope

Timestamp = Union[str, datetime, None]


def _iso(t: Timestamp) -> str:
    if isinstance(t, str):
        return t
    return (t or datetime.now(timezone.utc)).astimezone(timezone.utc).isoformat().replace("+00:00", "Z")


def _given(**fields: Any) -> Dict[str, Any]:
    return {k: v for k, v in fields.items() if v is not None}


class AccSession:
    """One ACC session: declared once, then one ``turn()`` call per agent turn."""

    def __init__(
        self,
        client: "Mnemoscope",
        id: str,
        agent: str,
        *,
        title: Optional[str] = None,
        domain: Optional[str] = None,
        metadata: Optional[Dict[str, Any]] = None,
        first_turn: int = 1,
    ) -> None:
        self.client = client
        self.id = id
        self.agent = agent
        self._next = first_turn
        client.record("session", _given(id=id, agent=agent, title=title, domain=domain, metadata=metadata))

    def turn(
        self,
        input: str,
        output: str,
        ccs: Union[str, Mapping[str, Sequence[str]]],
        *,
        recalled: Optional[Sequence[str]] = None,
        qualified: Optional[Sequence[str]] = None,
        turn: Optional[int] = None,
        timestamp: Timestamp = None,
        **extra: Any,
    ) -> int:
        """Records a turn: input, output, the committed CCS (the nine fields, or the paper's text notation), and the
        artifacts recalled and qualified. Other fields of the turn contract (``hallucination``, ``drift``,
        ``footprint``, ``judge``, ``utility`` …) go through as given. Returns its number."""
        n = self._next if turn is None else turn
        self._next = n + 1
        data = _given(
            recalled=list(recalled) if recalled is not None else None,
            qualified=list(qualified) if qualified is not None else None,
        )
        self.client.record(
            "turn",
            {
                **extra,
                **data,
                "session_id": self.id,
                "agent": self.agent,
                "turn": n,
                "input": input,
                "output": output,
                "ccs": ccs,
                "timestamp": _iso(timestamp),
            },
        )
        return n

    def artifact(self, id: str, content: str, *, timestamp: Timestamp = None, **extra: Any) -> str:
        """Stores an artifact in the external store (before the turn that recalls it). Returns its id."""
        self.client.record(
            "artifact",
            {
                **extra,
                "id": id,
                "content": content,
                "session_id": self.id,
                "agent": self.agent,
                "timestamp": _iso(timestamp),
            },
        )
        return id


class CuratorEmitter:
    """A worker agent's memory events, in the Agentlas schema the curator takes."""

    def __init__(
        self,
        client: "Mnemoscope",
        source_agent: str,
        task_id: str,
        *,
        project_id: Optional[str] = None,
        agent_repo: Optional[str] = None,
        team_id: Optional[str] = None,
    ) -> None:
        self.client = client
        self._base = _given(
            source_agent=source_agent, task_id=task_id, project_id=project_id, agent_repo=agent_repo, team_id=team_id
        )

    def emit(
        self,
        memory_kind: str,
        content: str,
        suggested_scope: str,
        *,
        evidence_refs: Sequence[str] = (),
        confidence: str = "medium",
        sensitivity: str = "internal",
        ttl: str = "durable",
        event_id: Optional[str] = None,
        timestamp: Timestamp = None,
        **extra: Any,
    ) -> str:
        """Emits one memory event; returns its event_id (generated unless given). Ask ``client.decision(id)``
        what the curator, and later a reviewer, made of it."""
        eid = event_id or new_event_id()
        self.client.record(
            "memory_event",
            {
                **self._base,
                **extra,
                "memory_kind": memory_kind,
                "content": content,
                "suggested_scope": suggested_scope,
                "evidence_refs": list(evidence_refs),
                "confidence": confidence,
                "sensitivity": sensitivity,
                "ttl": ttl,
                "event_id": eid,
                "timestamp": _iso(timestamp),
            },
        )
        return eid
