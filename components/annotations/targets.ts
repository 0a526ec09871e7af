import type { CcsTerms } from '@/lib/ccs/contract';
import type { TargetOption } from './store';

/** What can be annotated at a turn of the replay: the turn, each term of its CCS, each artifact it recalled. */
export function turnTargets(
  sessionId: string,
  turn: number,
  ccs: CcsTerms | null,
  artifactIds: string[],
): TargetOption[] {
  const out: TargetOption[] = [
    { key: 'turn', label: `turn ${turn}`, group: 'This turn', target: { target: 'turn', session_id: sessionId, turn } },
  ];
  for (const [field, terms] of Object.entries(ccs ?? {}))
    for (const term of terms ?? [])
      out.push({
        key: `term:${field}\u0000${term}`,
        label: `${field}: ${term}`,
        group: 'A term of its CCS',
        target: { target: 'term', session_id: sessionId, turn, field, term },
      });
  for (const id of artifactIds)
    out.push({
      key: `artifact:${id}`,
      label: id,
      group: 'An artifact it recalled',
      target: { target: 'artifact', session_id: sessionId, turn, artifact_id: id },
    });
  return out;
}

/** The option for what has the keyboard focus in the replay (a term chip, an artifact row), if any. */
export function focusedTarget(el: Element | null): string | undefined {
  const term = el?.closest('[data-term]');
  const field = term?.closest('[data-field]');
  if (term && field) return `term:${field.getAttribute('data-field')}\u0000${term.getAttribute('data-term')}`;
  const artifact = el?.closest('[data-artifact]');
  if (artifact) return `artifact:${artifact.getAttribute('data-artifact')}`;
  return undefined;
}
