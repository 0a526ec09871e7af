/**
 * Helpers for the three producers Mnemoscope knows: an ACC loop (a session of turns, each with its
 * CCS and the artifacts it recalled and qualified), a memory curator's emitter (memory events in the
 * current Agentlas schema), and a UCS bridge (field state, index, action log). Each builds records
 * with stable ids, so a retried or re-sent record is recognised as a duplicate.
 */
import type { Mnemoscope, RecordData } from './client';
import { newEventId } from '@/lib/curation/event-id';

/** The named fields of a loose contract (its `[key: string]: unknown` dropped, so Omit and Pick work). */
type Known<T> = { [K in keyof T as string extends K ? never : K]: T[K] };
type Turn = Known<RecordData<'turn'>>;
type Artifact = Known<RecordData<'artifact'>>;
type AgentlasEvent = Extract<RecordData<'memory_event'>, { memory_kind: unknown }>;

export interface AccSessionOptions {
  /** Session id; stable across restarts if the agent wants to continue a session. */
  id: string;
  agent: string;
  title?: string;
  domain?: string;
  metadata?: Record<string, unknown>;
  /** Number of the first turn sent through `turn()` without an explicit number (default 1). */
  firstTurn?: number;
}

export type TurnInput = Omit<Turn, 'session_id' | 'agent' | 'turn' | 'timestamp'> & {
  turn?: number;
  timestamp?: string | Date;
};
export type ArtifactInput = Omit<Artifact, 'session_id' | 'agent' | 'timestamp'> & { timestamp?: string | Date };

/** One ACC session: declares it, then one `turn()` call per agent turn. */
export class AccSession {
  readonly id: string;
  readonly agent: string;
  private next: number;

  constructor(
    private readonly client: Mnemoscope,
    o: AccSessionOptions,
  ) {
    this.id = o.id;
    this.agent = o.agent;
    this.next = o.firstTurn ?? 1;
    client.record({
      type: 'session',
      data: { id: o.id, agent: o.agent, title: o.title, domain: o.domain, metadata: o.metadata },
    });
  }

  /** Records a turn: input, output, the committed CCS, and what was recalled and qualified. Returns its number. */
  turn(t: TurnInput): number {
    const n = t.turn ?? this.next;
    this.next = n + 1;
    this.client.record({
      type: 'turn',
      data: { ...t, session_id: this.id, agent: this.agent, turn: n, timestamp: iso(t.timestamp ?? new Date()) },
    });
    return n;
  }

  /** Stores an artifact in the external store (before the turn that recalls it). Returns its id. */
  artifact(a: ArtifactInput): string {
    this.client.record({
      type: 'artifact',
      data: { ...a, session_id: this.id, agent: this.agent, timestamp: iso(a.timestamp ?? new Date()) },
    });
    return a.id;
  }
}

export interface CuratorOptions {
  sourceAgent: string;
  taskId: string;
  projectId?: string;
  agentRepo?: string;
  teamId?: string;
}

export type MemoryEventInput = Pick<AgentlasEvent, 'memory_kind' | 'content' | 'suggested_scope'> &
  Partial<Omit<AgentlasEvent, 'memory_kind' | 'content' | 'suggested_scope' | 'timestamp'>> & {
    timestamp?: string | Date;
  };

/** A worker agent's memory events, in the Agentlas schema the curator takes. */
export class CuratorEmitter {
  constructor(
    private readonly client: Mnemoscope,
    private readonly o: CuratorOptions,
  ) {}

  /** Emits one memory event; returns its event_id (generated unless given). */
  emit(e: MemoryEventInput): string {
    const event_id = e.event_id ?? newEventId();
    const data: AgentlasEvent = {
      confidence: 'medium',
      sensitivity: 'internal',
      evidence_refs: [],
      ttl: 'durable',
      source_agent: this.o.sourceAgent,
      task_id: this.o.taskId,
      ...(this.o.projectId ? { project_id: this.o.projectId } : {}),
      ...(this.o.agentRepo ? { agent_repo: this.o.agentRepo } : {}),
      ...(this.o.teamId ? { team_id: this.o.teamId } : {}),
      ...e,
      event_id,
      timestamp: iso(e.timestamp ?? new Date()),
    };
    this.client.record({ type: 'memory_event', data });
    return event_id;
  }
}

/** A UCS engine's files as they change: its field state, its index, and each action it takes. */
export class UcsBridge {
  constructor(
    private readonly client: Mnemoscope,
    readonly agent: string,
  ) {}

  /** A snapshot of the toroidal field (`ucs_state.json`); one per step `t`. */
  state(doc: RecordData<'ucs_state'>): void {
    this.client.record({ type: 'ucs_state', agent: this.agent, data: doc });
  }

  /** The index: annotations, methodology, dead ends, judgment nodes, policy overrides. */
  index(doc: RecordData<'ucs_index'>): void {
    this.client.record({ type: 'ucs_index', agent: this.agent, data: doc });
  }

  /** One entry of the action log. */
  action(a: RecordData<'ucs_action'>): void {
    this.client.record({ type: 'ucs_action', agent: this.agent, data: a });
  }

  /** A cognitive export (`ucs_cognitive_export_v2`). */
  export(doc: RecordData<'ucs_export'>): void {
    this.client.record({ type: 'ucs_export', agent: this.agent, data: doc });
  }

  /** A knowledge document (Markdown). */
  knowledge(name: string, markdown: string): void {
    this.client.record({ type: 'ucs_knowledge', agent: this.agent, data: { name, markdown } });
  }
}

function iso(t: string | Date): string {
  return typeof t === 'string' ? t : t.toISOString();
}
