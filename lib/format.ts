import { format } from 'd3';

/** Every number shown to a person has a unit and a sensible format. */

const si = format('.3~s');
const int = format(',d');
const pct = format('.1%');
const fixed1 = format('.1f');
const count2 = format('.2~s');

export const fmtInt = (n: number | null | undefined) => (n === null || n === undefined ? '—' : int(n));
/** A count in at most four characters, for a badge where a whole one would not fit: "999", "1.2k", "16k", "1.5B". */
export const fmtCount = (n: number) => (n < 1000 ? int(n) : count2(n).replace('G', 'B'));
/** A whole number with its sign, the minus a typographic one: "+3", "−100", "0". */
export const fmtSigned = (n: number) => (n > 0 ? `+${int(n)}` : n < 0 ? `−${int(-n)}` : '0');
/** A count with its noun, singular for one: "1 φ-cycle", "7 φ-cycles", "1,204 log lines". */
export const plural = (n: number, one: string, many = `${one}s`) => `${int(n)} ${n === 1 ? one : many}`;
export const fmtTokens = (n: number | null | undefined) =>
  n === null || n === undefined ? '—' : `${n < 1000 ? int(Math.round(n)) : si(n)} tok`;
export const fmtRate = (n: number | null | undefined) => (n === null || n === undefined ? '—' : pct(n));
export const fmtScore = (n: number | null | undefined) => (n === null || n === undefined ? '—' : `${fixed1(n)}/10`);

/** Money in US dollars as model providers bill it: cents from a dollar up, two significant digits below. */
export const fmtCost = (c: number | null | undefined) =>
  c === null || c === undefined || !Number.isFinite(c)
    ? '—'
    : Math.abs(c) >= 1 || c === 0
      ? `$${c === 0 ? '0' : c.toFixed(2)}`
      : `$${+c.toPrecision(2)}`;

/** A call's latency: milliseconds under a second, then seconds to a tenth. */
export function fmtLatency(ms: number | null | undefined): string {
  if (ms === null || ms === undefined || !Number.isFinite(ms)) return '—';
  return ms < 1000 ? `${Math.round(ms)} ms` : ms < 60_000 ? `${(ms / 1000).toFixed(1)} s` : fmtDuration(ms);
}

export function fmtDuration(ms: number | null | undefined): string {
  if (ms === null || ms === undefined || !Number.isFinite(ms)) return '—';
  const s = Math.round(ms / 1000);
  if (s < 60) return `${s} s`;
  const m = Math.round(s / 60);
  if (m < 60) return `${m} min`;
  const h = Math.floor(m / 60);
  if (h < 48) return `${h} h ${m % 60} min`;
  return `${Math.round(h / 24)} d`;
}

/**
 * How long a session ran, from its first turn's time to its last: "over 12 min", "within 1 s" when its turns were
 * sent at once, and nothing for a single turn or a session without times (there is no span to speak of).
 */
export function fmtSpan(firstAt: string | null | undefined, lastAt: string | null | undefined, turns: number): string {
  if (turns < 2 || !firstAt || !lastAt) return '';
  const ms = Date.parse(lastAt) - Date.parse(firstAt);
  if (!Number.isFinite(ms)) return '';
  return ms < 1000 ? 'within 1 s' : `over ${fmtDuration(ms)}`;
}

const dateTime = new Intl.DateTimeFormat('en-GB', {
  day: '2-digit',
  month: 'short',
  year: 'numeric',
  hour: '2-digit',
  minute: '2-digit',
  timeZone: 'UTC',
});
const time = new Intl.DateTimeFormat('en-GB', {
  hour: '2-digit',
  minute: '2-digit',
  second: '2-digit',
  timeZone: 'UTC',
});

/** Times are shown in UTC and say so: agents and people reading them are rarely in one zone. */
export const fmtDateTime = (iso: string | Date | null | undefined) =>
  iso ? `${dateTime.format(new Date(iso))} UTC` : '—';
export const fmtTime = (iso: string | Date | null | undefined) => (iso ? time.format(new Date(iso)) : '—');

export function fmtAgo(iso: string | Date | null | undefined, now = Date.now()): string {
  if (!iso) return 'never';
  const d = now - new Date(iso).getTime();
  if (d < 60_000) return 'just now';
  return `${fmtDuration(d)} ago`;
}

export function mean(values: readonly (number | null | undefined)[]): number | null {
  let s = 0;
  let n = 0;
  for (const v of values) {
    if (typeof v === 'number' && Number.isFinite(v)) {
      s += v;
      n++;
    }
  }
  return n ? s / n : null;
}
