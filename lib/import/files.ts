import type { Envelope } from '@/lib/ingest/contract';
import { isLangGraphState, langGraphEnvelopes } from './langgraph';

/**
 * Turns files written by real agents (UCS workspaces and exports, curator events, ACC sessions)
 * into ingest envelopes. Pure: the CLI and the browser both read the files and call this.
 */

export interface SourceFile {
  /** Path relative to what the user named, with forward slashes. */
  path: string;
  text: string;
}

export interface ConvertedFile {
  path: string;
  kind: string;
  envelopes: Envelope[];
}

export interface ConvertResult {
  files: ConvertedFile[];
  skipped: { path: string; reason: string }[];
  /**
   * `needsAgent`: the file is UCS data that does not name its agent, and why (the message without its remedy); it
   * converts once one is given.
   */
  errors: { path: string; message: string; needsAgent?: string }[];
}

/** Why a file is not converted; `needsAgent`, the reason alone, when naming the agent would convert it. */
type FileError = { error: string; needsAgent?: string };

type Json = Record<string, unknown>;
const isObj = (v: unknown): v is Json => !!v && typeof v === 'object' && !Array.isArray(v);
const base = (p: string) => p.split('/').pop() ?? p;

function parseJsonLines(text: string): { values: unknown[]; error?: string } {
  const values: unknown[] = [];
  const lines = text.split(/\r?\n/);
  for (let i = 0; i < lines.length; i++) {
    const l = lines[i]!.trim();
    if (!l) continue;
    try {
      values.push(JSON.parse(l));
    } catch (e) {
      return { values, error: `line ${i + 1} is not valid JSON: ${(e as Error).message}` };
    }
  }
  return { values };
}

const isEnvelope = (v: unknown) => isObj(v) && typeof v.type === 'string' && 'data' in v;
const isEvent = (v: unknown) =>
  isObj(v) && typeof v.event_id === 'string' && ('memory_kind' in v || 'kind' in v) && 'content' in v;
const isTurn = (v: unknown) => isObj(v) && 'session_id' in v && 'turn' in v;
const isAction = (v: unknown) => isObj(v) && typeof v.t === 'number' && typeof v.action === 'string';

/** The agent a UCS workspace belongs to, from the files that name it. */
export function workspaceAgent(files: SourceFile[]): string | undefined {
  for (const name of ['export.json', 'status.json']) {
    const f = files.find((x) => base(x.path) === name);
    if (!f) continue;
    try {
      const v = JSON.parse(f.text);
      if (isObj(v) && typeof v.agent_id === 'string') return v.agent_id;
    } catch {
      /* reported when the file itself is converted */
    }
  }
  return undefined;
}

/**
 * Converts one file; `agent` names the agent for UCS files that do not. `askAgent` says how to give it, where it is
 * missing (the CLI's flag, the page's field).
 */
export function convertFile(
  file: SourceFile,
  agent?: string,
  askAgent = 'pass --agent',
): ConvertedFile | { skip: string } | FileError {
  const noAgent = (what: string): FileError => ({ error: `${what}; ${askAgent}`, needsAgent: what });
  const name = base(file.path);
  const lower = name.toLowerCase();
  const env = (type: Envelope['type'], data: unknown): Envelope => ({
    type,
    data,
    ...(agent && type.startsWith('ucs_') ? { agent } : {}),
    source: file.path,
  });

  if (lower.endsWith('.md') || lower.endsWith('.markdown')) {
    const events = memoryEventsFromMarkdown(file.text);
    if (events === 'bad')
      return { error: 'the "## Memory Events" section holds a fenced block that is not a JSON array of events' };
    if (events)
      return {
        path: file.path,
        kind: 'memory events (Markdown)',
        envelopes: events.map((e) => env('memory_event', e)),
      };
    if (file.path.includes('knowledge/')) {
      if (!agent) return noAgent('UCS knowledge notes need the agent');
      return {
        path: file.path,
        kind: 'UCS knowledge notes',
        envelopes: [env('ucs_knowledge', { name: name.replace(/\.(md|markdown)$/i, ''), markdown: file.text })],
      };
    }
    return { skip: 'Markdown without a "## Memory Events" section' };
  }

  if (lower.endsWith('.jsonl') || lower.endsWith('.ndjson')) {
    const { values, error } = parseJsonLines(file.text);
    if (error) return { error };
    if (!values.length) return { skip: 'empty file' };
    if (values.every(isEnvelope)) return { path: file.path, kind: 'ingest envelopes', envelopes: values as Envelope[] };
    if (values.every(isEvent))
      return { path: file.path, kind: 'memory events', envelopes: values.map((v) => env('memory_event', v)) };
    if (values.every(isTurn))
      return { path: file.path, kind: 'session turns', envelopes: values.map((v) => env('turn', v)) };
    if (values.every(isLangGraphState)) return langGraph(values);
    if (values.every(isAction)) {
      if (!agent) return noAgent('a UCS action log needs the agent');
      return { path: file.path, kind: 'UCS action log', envelopes: values.map((v) => env('ucs_action', v)) };
    }
    return { error: 'lines are neither envelopes, memory events, session turns nor UCS actions' };
  }

  if (!lower.endsWith('.json')) return { skip: 'not a .json, .jsonl, .ndjson or .md file' };
  let v: unknown;
  try {
    v = JSON.parse(file.text);
  } catch (e) {
    return { error: `not valid JSON: ${(e as Error).message}` };
  }

  if (Array.isArray(v)) {
    if (!v.length) return { skip: 'empty array' };
    if (v.every(isEnvelope)) return { path: file.path, kind: 'ingest envelopes', envelopes: v as Envelope[] };
    if (v.every(isEvent))
      return { path: file.path, kind: 'memory events', envelopes: v.map((x) => env('memory_event', x)) };
    if (v.every(isTurn)) return { path: file.path, kind: 'session turns', envelopes: v.map((x) => env('turn', x)) };
    if (v.every((x) => isObj(x) && 'consult' in x)) return ucs('UCS consult samples', 'ucs_consult_samples');
    if (v.every(isLangGraphState)) return langGraph(v);
    return { error: 'a JSON array that is neither envelopes, memory events, session turns nor UCS consult samples' };
  }
  if (!isObj(v)) return { error: 'neither a JSON object nor an array' };

  if (typeof v.$schema === 'string' && isObj(v.properties))
    return { skip: 'a JSON Schema (describes data, holds none)' };
  if (isEnvelope(v)) return { path: file.path, kind: 'ingest envelope', envelopes: [v as unknown as Envelope] };
  if (isEvent(v)) return { path: file.path, kind: 'memory event', envelopes: [env('memory_event', v)] };
  if (isObj(v.state) && 'theta_bins' in v.state) return ucs('UCS field state', 'ucs_state');
  if (typeof v.format === 'string' && v.format.startsWith('ucs_cognitive_export'))
    return ucs('UCS export package', 'ucs_export', true);
  if ('methodology_entries' in v || 'dead_end_entries' in v || 'judgment_nodes' in v)
    return ucs('UCS annotation index', 'ucs_index');
  if (Array.isArray(v.snapshots) && v.snapshots.every((s) => isObj(s) && 'pp' in s))
    return ucs('UCS PP history', 'ucs_pp_history');
  if ('pp_health' in v && 'status' in v) return ucs('UCS status', 'ucs_status', true);
  if (isObj(v.session) && Array.isArray(v.turns)) {
    const s = v.session;
    return {
      path: file.path,
      kind: 'session',
      envelopes: [
        env('session', s),
        ...v.turns.map((t) => env('turn', isObj(t) && !('session_id' in t) ? { session_id: s.id, ...t } : t)),
      ],
    };
  }
  if (Object.values(v).length && Object.values(v).every((x) => isObj(x) && 'P_at_t365' in x))
    return { skip: "the curator paper's Monte Carlo results table (a figure, not memory)" };
  return {
    error:
      'not a file Mnemoscope knows (UCS state/index/export/PP history/status, memory events, session turns or ' +
      'envelopes)',
  };

  function langGraph(states: unknown[]): ConvertedFile | { error: string } {
    const r = langGraphEnvelopes(states, {
      fallbackId: name.replace(/\.(jsonl?|ndjson)$/i, ''),
      agent,
      source: file.path,
    });
    return 'error' in r ? r : { path: file.path, kind: 'LangGraph thread history', envelopes: r };
  }

  function ucs(kind: string, type: Envelope['type'], namesAgent = false): ConvertedFile | FileError {
    if (!agent && !(namesAgent && isObj(v) && typeof v.agent_id === 'string'))
      return noAgent(`${kind}: the file does not name its agent`);
    return { path: file.path, kind, envelopes: [env(type, v)] };
  }
}

/** The JSON array fenced under a `## Memory Events` heading, or null when there is no such section. */
export function memoryEventsFromMarkdown(md: string): unknown[] | null | 'bad' {
  const m = /^##\s+Memory Events\s*$/im.exec(md);
  if (!m) return null;
  const rest = md.slice(m.index + m[0].length);
  const next = /^##\s/m.exec(rest);
  const section = next ? rest.slice(0, next.index) : rest;
  const fence = /```(?:json|jsonc)?\s*\n([\s\S]*?)```/.exec(section);
  if (!fence) return null;
  try {
    const v = JSON.parse(fence[1]!);
    return Array.isArray(v) ? v : 'bad';
  } catch {
    return 'bad';
  }
}

/**
 * Converts a set of files (a directory the user named, or single files). The agent of UCS files is `agent`, else the
 * one the workspace names; with `workspaceFirst` the workspace's own comes first (the page's field is for files that
 * name none, where the CLI's flag overrides).
 */
export function convertFiles(
  files: SourceFile[],
  opts: { agent?: string; workspaceFirst?: boolean; askAgent?: string } = {},
): ConvertResult {
  const agent = opts.workspaceFirst ? (workspaceAgent(files) ?? opts.agent) : (opts.agent ?? workspaceAgent(files));
  const out: ConvertResult = { files: [], skipped: [], errors: [] };
  for (const f of [...files].sort((a, b) => a.path.localeCompare(b.path))) {
    const r = convertFile(f, agent, opts.askAgent);
    if ('skip' in r) out.skipped.push({ path: f.path, reason: r.skip });
    else if ('error' in r)
      out.errors.push({ path: f.path, message: r.error, ...(r.needsAgent ? { needsAgent: r.needsAgent } : {}) });
    else out.files.push(r);
  }
  return out;
}
