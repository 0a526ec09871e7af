/**
 * What the hygiene lab's components show, derived from the lab's data: pure, so the components only
 * render. Memory items here are the lab's DTO rows (typed by shape: lib/ does not import the router).
 */
import { fmtInt } from '@/lib/format';
import type { ChainLink, UtilitySource } from './items';

/** Two decimals, or a dash when unknown (similarities and utilities, 0–1). */
export const f2 = (x: number | null | undefined) => (x === null || x === undefined ? '—' : x.toFixed(2));
/** A 0–1 share as a whole percentage, or a dash when unknown. */
export const pct = (x: number | null | undefined) => (x === null || x === undefined ? '—' : `${(x * 100).toFixed(0)}%`);

/** Where a turn opens in Sessions. */
export const turnHref = (session: string, turn: number) => `/sessions/${encodeURIComponent(session)}?turn=${turn}`;

/** Where the lab's utilities came from, in words: "reported utility (96); 3 turns without". */
export function describeUtilitySources(s: Record<UtilitySource | 'none', number>): string {
  const name = (k: string) =>
    k === 'utility'
      ? 'reported utility'
      : k === 'success'
        ? 'reported success'
        : k === 'judge'
          ? 'judge scores'
          : '1 − H_t';
  const parts = Object.entries(s)
    .filter(([k, n]) => n && k !== 'none')
    .map(([k, n]) => `${name(k)} (${fmtInt(n)})`);
  return (parts.join(', ') || 'nothing') + (s.none ? `; ${fmtInt(s.none)} turns without` : '');
}

export type ChainTurn = ChainLink['turn'];
/** Chains grouped for display: each link's memory item and the wrong turns it was recalled into. */
export interface ChainGroup {
  links: { item: string; turns: ChainTurn[] }[];
}

/** Chains that differ only in the last wrong turn become one, with those turns side by side. */
export function groupChains(chains: readonly ChainLink[][]): ChainGroup[] {
  const out = new Map<string, ChainGroup>();
  for (const c of chains) {
    const sig = c
      .slice(0, -1)
      .map((l) => `${l.item}>${l.turn.step}`)
      .concat(c.at(-1)!.item)
      .join('|');
    const g = out.get(sig) ?? { links: c.map((l) => ({ item: l.item, turns: [] as ChainTurn[] })) };
    c.forEach((l, i) => {
      if (!g.links[i]!.turns.some((t) => t.step === l.turn.step)) g.links[i]!.turns.push(l.turn);
    });
    out.set(sig, g);
  }
  return [...out.values()];
}

/** The memory items that take part in an error-propagation chain. */
export const itemsInChains = (chains: readonly ChainLink[][]) => new Set(chains.flatMap((c) => c.map((l) => l.item)));

export type ItemFilter = 'all' | 'misaligned' | 'chains' | 'recalled' | 'never' | 'entries';

interface ListedItem {
  id: string;
  content: string;
  source: string;
  misaligned: boolean;
  recalled: number;
  addedStep: number;
}

/**
 * The memory items list: those the filter and the search text (id or content, any case) let through;
 * misaligned first, then the most recalled, then the oldest.
 */
export function filterItems<T extends ListedItem>(
  items: readonly T[],
  filter: ItemFilter,
  q: string,
  inChains: ReadonlySet<string>,
): T[] {
  const text = q.toLowerCase();
  return items
    .filter((r) =>
      filter === 'misaligned'
        ? r.misaligned
        : filter === 'chains'
          ? inChains.has(r.id)
          : filter === 'recalled'
            ? r.recalled > 0
            : filter === 'never'
              ? r.recalled === 0
              : filter === 'entries'
                ? r.source === 'entry'
                : true,
    )
    .filter((r) => !q || r.id.toLowerCase().includes(text) || r.content.toLowerCase().includes(text))
    .sort(
      (a, b) => Number(b.misaligned) - Number(a.misaligned) || b.recalled - a.recalled || a.addedStep - b.addedStep,
    );
}
