/**
 * The hygiene lab's charts, prepared: d3 does the maths (scales, ticks, paths), the components in
 * components/hygiene only draw what these return.
 */
import { scaleLinear } from 'd3';
import { f2 } from './lab-view';

/** One retrieval of a memory item, as the experience-following plot shows it. */
export interface ScatterPoint {
  key: string;
  item: string;
  x: number;
  y: number;
  utility: number | null;
  flagged: boolean;
  label: string;
}

interface PlottedItem {
  id: string;
  misaligned: boolean;
  retrievals: readonly {
    step: number;
    session: string;
    turn: number;
    inputSim: number | null;
    outputSim: number | null;
    utility: number | null;
  }[];
}

/** One point per retrieval whose two similarities are known; an item's points are flagged when it is misaligned. */
export function scatterPoints(items: readonly PlottedItem[]): ScatterPoint[] {
  return items.flatMap((r) =>
    r.retrievals
      .filter((x) => x.inputSim !== null && x.outputSim !== null)
      .map((x) => ({
        key: `${r.id}@${x.step}`,
        item: r.id,
        x: x.inputSim!,
        y: x.outputSim!,
        utility: x.utility,
        flagged: r.misaligned,
        label:
          `${r.id} recalled into ${x.session} turn ${x.turn}: ` +
          `input ${f2(x.inputSim)}, output ${f2(x.outputSim)}, utility ${f2(x.utility)}`,
      })),
  );
}

/** How the turn a point was recalled into went: well, wrong (utility < 0.5) or not reported. */
export type Tone = 'good' | 'bad' | 'none';
const toneOf = (utility: number | null): Tone => (utility === null ? 'none' : utility < 0.5 ? 'bad' : 'good');

/** The plotting area's edges, in pixels. */
export interface Frame {
  left: number;
  right: number;
  top: number;
  bottom: number;
}

export interface PreparedScatter {
  frame: Frame;
  /** The corner where the misalignment rule fires (input ≥ inputMin, output ≤ outputMax). */
  zone: { x: number; y: number; width: number; height: number };
  /** Where the zone's caption ends (bottom right of the plot). */
  zoneLabel: { x: number; y: number };
  /** Both axes share one domain, so one list of ticks: x for the input axis, y for the output axis. */
  ticks: { value: number; label: string; x: number; y: number }[];
  xLabel: { x: number; y: number };
  yLabel: { x: number; y: number };
  dots: { key: string; item: string; cx: number; cy: number; tone: Tone; flagged: boolean; label: string }[];
}

/**
 * Scales for the experience-following plot: input similarity across, output similarity up, both from
 * the lowest similarity (0.4 at most) to 1.
 */
export function prepareScatter(
  points: readonly ScatterPoint[],
  inputMin: number,
  outputMax: number,
  width: number,
  height: number,
): PreparedScatter {
  const m = { l: 40, r: 12, t: 10, b: 34 };
  const lo = Math.min(0.4, ...points.map((p) => Math.min(p.x, p.y)));
  const x = scaleLinear()
    .domain([lo, 1])
    .range([m.l, width - m.r]);
  const y = scaleLinear()
    .domain([lo, 1])
    .range([height - m.b, m.t]);
  return {
    frame: { left: m.l, right: width - m.r, top: m.t, bottom: height - m.b },
    zone: {
      x: x(inputMin),
      y: y(outputMax),
      width: Math.max(0, x(1) - x(inputMin)),
      height: Math.max(0, y(lo) - y(outputMax)),
    },
    zoneLabel: { x: x(1) - 4, y: y(lo) - 6 },
    ticks: x.ticks(6).map((t) => ({ value: t, label: t.toFixed(1), x: x(t), y: y(t) })),
    xLabel: { x: (m.l + width - m.r) / 2, y: height - 4 },
    yLabel: { x: 11, y: (m.t + height - m.b) / 2 },
    dots: points.map((p) => ({
      key: p.key,
      item: p.item,
      cx: x(p.x),
      cy: y(p.y),
      tone: toneOf(p.utility),
      flagged: p.flagged,
      label: p.label,
    })),
  };
}

export interface PreparedRecallStrip {
  /** Where the item's line starts: the step it entered memory. */
  from: number;
  marks: { x: number; bad: boolean }[];
}

/**
 * When a memory item was recalled, across the agent's `total` steps, on a strip `width` pixels wide
 * with a pixel of margin at each end; bad marks are recalls into a turn that went wrong (utility < 0.5).
 */
export function prepareRecallStrip(
  retrievals: readonly { step: number; utility: number | null }[],
  total: number,
  added: number,
  width: number,
): PreparedRecallStrip {
  const x = (s: number) => (total ? (s / total) * (width - 2) + 1 : 0);
  return {
    from: x(added),
    marks: retrievals.map((r) => ({ x: x(r.step), bad: r.utility !== null && r.utility < 0.5 })),
  };
}
