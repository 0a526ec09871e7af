import { color, interpolateInferno, interpolateRdBu } from 'd3';

/** 256 colours of the ramp, so drawing a frame is a table lookup per cell. */
export function colourTable(diverging: boolean): Uint8ClampedArray {
  const out = new Uint8ClampedArray(256 * 3);
  for (let k = 0; k < 256; k++) {
    // Diverging: blue below zero, red above (RdBu reversed).
    const c = color(diverging ? interpolateRdBu(1 - k / 255) : interpolateInferno(k / 255))!.rgb();
    out[k * 3] = c.r;
    out[k * 3 + 1] = c.g;
    out[k * 3 + 2] = c.b;
  }
  return out;
}

/** Where a value falls on the colour ramp, 0–1; `sqrt` spreads out fields whose mass sits near zero. */
export function rampPosition(v: number, domain: readonly [number, number], diverging: boolean, sqrt: boolean): number {
  const [lo, hi] = domain;
  if (diverging) {
    const m = Math.max(Math.abs(lo), Math.abs(hi)) || 1;
    const x = v / m;
    return 0.5 + 0.5 * (sqrt ? Math.sign(x) * Math.sqrt(Math.abs(x)) : x);
  }
  if (hi === lo) return 0;
  const x = Math.max(0, Math.min(1, (v - lo) / (hi - lo)));
  return sqrt ? Math.sqrt(x) : x;
}

export interface DrawOptions {
  thetaBins: number;
  phiBins: number;
  values: ArrayLike<number>;
  domain: readonly [number, number];
  diverging: boolean;
  sqrt: boolean;
  colours: Uint8ClampedArray;
  /** Pan offset in cells: the torus wraps, so any offset shows the whole field. */
  offset: { theta: number; phi: number };
  /** Size on screen in CSS pixels. */
  width: number;
  height: number;
}

let scratch: HTMLCanvasElement | null = null;

/**
 * Draws a θ×φ field: one pixel a cell into a small canvas (ImageData), then scaled up without
 * smoothing. Used by the heatmap and measured by bench/substrate.ts.
 */
export function drawField(target: HTMLCanvasElement, o: DrawOptions): void {
  const small = (scratch ??= document.createElement('canvas'));
  if (small.width !== o.phiBins || small.height !== o.thetaBins) {
    small.width = o.phiBins;
    small.height = o.thetaBins;
  }
  const sctx = small.getContext('2d')!;
  const img = sctx.createImageData(o.phiBins, o.thetaBins);
  const data = img.data;
  const { thetaBins, phiBins, values, colours } = o;
  for (let row = 0; row < thetaBins; row++) {
    const theta = (((row + o.offset.theta) % thetaBins) + thetaBins) % thetaBins;
    for (let col = 0; col < phiBins; col++) {
      const v = values[theta * phiBins + ((((col + o.offset.phi) % phiBins) + phiBins) % phiBins)]!;
      const k = Number.isFinite(v)
        ? Math.max(0, Math.min(255, Math.round(rampPosition(v, o.domain, o.diverging, o.sqrt) * 255)))
        : 0;
      const p = (row * phiBins + col) * 4;
      data[p] = colours[k * 3]!;
      data[p + 1] = colours[k * 3 + 1]!;
      data[p + 2] = colours[k * 3 + 2]!;
      data[p + 3] = 255;
    }
  }
  sctx.putImageData(img, 0, 0);
  const dpr = window.devicePixelRatio || 1;
  if (target.width !== Math.round(o.width * dpr)) target.width = Math.round(o.width * dpr);
  if (target.height !== Math.round(o.height * dpr)) target.height = Math.round(o.height * dpr);
  const ctx = target.getContext('2d')!;
  ctx.imageSmoothingEnabled = false;
  ctx.drawImage(small, 0, 0, target.width, target.height);
}
