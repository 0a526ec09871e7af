/**
 * Addition policy report ("How Memory Management Impacts LLM Agents: An Empirical Study of
 * Experience-Following Behavior", §4): for agents that report their
 * evaluator's decision per turn (`addition: {decision: "added" | "skipped", evaluator, score}`), what
 * add-all would have stored against what selective addition stored, and the quality (utility) of
 * each, window by window over time.
 */
import type { LabTurn } from './items';

export interface AdditionWindow {
  from: number;
  to: number;
  /** Turns with a reported decision: what add-all would add. */
  executions: number;
  added: number;
  skipped: number;
  /** Mean utility of all executions (add-all's quality) and of those the evaluator let in. */
  meanUtilityAll: number | null;
  meanUtilityAdded: number | null;
  meanUtilitySkipped: number | null;
  /** Added although the turn went wrong (utility < 0.5): errors let into memory. */
  errorsAdded: number;
  evaluators: string[];
}

export interface AdditionReport {
  reported: number;
  windows: AdditionWindow[];
  total: AdditionWindow;
}

const mean = (xs: number[]) => (xs.length ? xs.reduce((a, b) => a + b, 0) / xs.length : null);

function summarize(turns: LabTurn[], from: number, to: number): AdditionWindow {
  const withDecision = turns.filter((t) => t.addition);
  const added = withDecision.filter((t) => t.addition!.decision === 'added');
  const skipped = withDecision.filter((t) => t.addition!.decision === 'skipped');
  const u = (ts: LabTurn[]) => mean(ts.map((t) => t.utility).filter((x): x is number => x !== null));
  return {
    from,
    to,
    executions: withDecision.length,
    added: added.length,
    skipped: skipped.length,
    meanUtilityAll: u(withDecision),
    meanUtilityAdded: u(added),
    meanUtilitySkipped: u(skipped),
    errorsAdded: added.filter((t) => t.utility !== null && t.utility < 0.5).length,
    evaluators: [...new Set(withDecision.map((t) => t.addition!.evaluator ?? 'unnamed'))].sort(),
  };
}

/** Splits the timeline into `windows` equal spans of steps (at least one turn each). */
export function additionReport(turns: LabTurn[], windows = 8): AdditionReport {
  const reported = turns.filter((t) => t.addition).length;
  const last = turns.length ? Math.max(...turns.map((t) => t.step)) : 0;
  const size = Math.max(1, Math.ceil(last / windows));
  const out: AdditionWindow[] = [];
  for (let from = 1; from <= last; from += size) {
    const to = Math.min(last, from + size - 1);
    out.push(
      summarize(
        turns.filter((t) => t.step >= from && t.step <= to),
        from,
        to,
      ),
    );
  }
  return { reported, windows: out, total: summarize(turns, 1, last) };
}
