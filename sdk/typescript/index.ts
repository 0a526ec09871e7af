/**
 * Mnemoscope SDK for TypeScript/JavaScript agents: the package `@mnemoscope/sdk` (`npm run sdk:build`, then
 * `npm pack` in sdk/typescript; see its README).
 *
 *   import { Mnemoscope } from '@mnemoscope/sdk';
 *   const mnemo = new Mnemoscope({ url: 'http://127.0.0.1:3000', apiKey: process.env.MNEMOSCOPE_API_KEY });
 *   const session = mnemo.acc({ id: 'run-42', agent: 'triage-bot' });
 *   session.turn({ input, output, ccs, recalled: ['a1'], qualified: ['a1'] });
 *   await recordLangGraph(mnemo, graph, { configurable: { thread_id: 't-1' } });   // a LangGraph thread
 *
 * Records go out in the background; see `client.ts` for what happens when the server is down.
 */
import { Mnemoscope as Client, type MnemoscopeOptions, type RecordData } from './client';

/** A score and/or comment on a turn, a CCS term, an artifact, a proposal or an entry; the id is made when absent. */
export type AnnotationInput = Omit<RecordData<'annotation'>, 'id'> & { id?: string };
import { AccSession, CuratorEmitter, UcsBridge, type AccSessionOptions, type CuratorOptions } from './producers';

export class Mnemoscope extends Client {
  constructor(options: MnemoscopeOptions = {}) {
    super(options);
  }

  /** An ACC session: declares it, then `turn()` once per turn. */
  acc(o: AccSessionOptions): AccSession {
    return new AccSession(this, o);
  }

  /** A curator emitter for one worker agent and task. */
  curator(o: CuratorOptions): CuratorEmitter {
    return new CuratorEmitter(this, o);
  }

  /**
   * Scores or comments on what an agent did (an automated judge, an eval run). Returns the annotation's id: sending
   * the same id again is a duplicate, not a second score.
   */
  annotate(a: AnnotationInput): string {
    const id = a.id ?? crypto.randomUUID();
    this.record({ type: 'annotation', data: { ...a, id } });
    return id;
  }

  /** A bridge for one UCS agent's files. */
  ucs(agent: string): UcsBridge {
    return new UcsBridge(this, agent);
  }
}

export type { ClientStats, Envelope, MnemoscopeOptions, RecordData, RejectedRecord, SessionState } from './client';
export { recordLabel } from './client';
export { AccSession, CuratorEmitter, UcsBridge } from './producers';
export { newEventId } from '@/lib/curation/event-id';
export type { DecidedEntry, MemoryDecision } from '@/lib/curation/decision';
/** For a webhook receiver: `await verifyWebhook(secret, rawBody, request.headers.get('mnemoscope-signature'))`. */
export { SIGNATURE_HEADER, WEBHOOK_EVENTS, verifyWebhook, type WebhookEvent } from '@/lib/webhooks/contract';
export type { AccSessionOptions, ArtifactInput, CuratorOptions, MemoryEventInput, TurnInput } from './producers';
/** A LangGraph thread's checkpoint history as a session: `await recordLangGraph(mnemo, graph, config)`. */
export {
  recordLangGraph,
  type LangGraphHistorySource,
  type LangGraphRecording,
  type LangGraphThreadConfig,
  type RecordLangGraphOptions,
} from './langgraph';
