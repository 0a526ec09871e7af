/**
 * Heatmap benchmark in headless Chromium: redraw time of the real drawing code (canvas, one pixel a
 * cell, scaled) for a 24×32 and a 256×256 field, against a naive SVG with one <rect> a cell updated
 * the same way, in the same run; and frames dropped while playing 100 snapshots at 60 fps.
 *
 *   npm run bench:substrate
 */
import './quiet';
import path from 'node:path';
import { build } from 'esbuild';
import { launch } from '../e2e/browser';

const root = path.resolve(import.meta.dirname, '..');

async function main() {
  const bundle = await build({
    entryPoints: [path.join(root, 'components/substrate/draw-field.ts')],
    bundle: true,
    format: 'iife',
    globalName: 'Field',
    write: false,
    alias: { '@': root },
    logLevel: 'silent',
  });
  const browser = await launch();
  try {
    const page = await browser.newPage({ viewport: { width: 1200, height: 900 } });
    await page.setContent(
      '<!doctype html><html><body style="margin:0"><canvas id="c"></canvas><div id="s"></div></body></html>',
    );
    await page.addScriptTag({ content: bundle.outputFiles[0]!.text });
    // tsx (esbuild keepNames) wraps functions in __name(): give the page one, as the bench's evaluate body carries it.
    await page.addScriptTag({ content: 'window.__name = function (f) { return f; };' });
    const results = await page.evaluate(async () => {
      const F = (window as unknown as { Field: typeof import('../components/substrate/draw-field') }).Field;
      const pct = (xs: number[], p: number) =>
        [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor((p / 100) * xs.length))]!;
      const field = (n: number, seed: number) =>
        Float64Array.from({ length: n }, (_, i) => Math.sin(i * 0.37 + seed) * 10 + 12);
      const canvas = document.getElementById('c') as HTMLCanvasElement;
      const colours = F.colourTable(false);
      const out: Record<string, { p50: number; p95: number }> = {};
      for (const [th, ph, w] of [
        [24, 32, 768],
        [256, 256, 768],
      ] as const) {
        const frames = Array.from({ length: 8 }, (_, k) => field(th * ph, k));
        const times: number[] = [];
        for (let r = 0; r < 60; r++) {
          const t0 = performance.now();
          F.drawField(canvas, {
            thetaBins: th,
            phiBins: ph,
            values: frames[r % 8]!,
            domain: [2, 22],
            diverging: false,
            sqrt: false,
            colours,
            offset: { theta: r % th, phi: 0 },
            width: w,
            height: (w * th) / ph,
          });
          canvas.getContext('2d')!.getImageData(0, 0, 1, 1); // wait for the draw to land
          times.push(performance.now() - t0);
        }
        out[`canvas ${th}×${ph}`] = { p50: pct(times.slice(10), 50), p95: pct(times.slice(10), 95) };

        // Naive: an SVG with one <rect> a cell, fills set per frame.
        const host = document.getElementById('s')!;
        host.innerHTML = '';
        const svg = document.createElementNS('http://www.w3.org/2000/svg', 'svg');
        svg.setAttribute('width', String(w));
        svg.setAttribute('height', String((w * th) / ph));
        const cell = w / ph;
        const rects: SVGRectElement[] = [];
        for (let i = 0; i < th * ph; i++) {
          const r = document.createElementNS('http://www.w3.org/2000/svg', 'rect');
          r.setAttribute('x', String((i % ph) * cell));
          r.setAttribute('y', String(Math.floor(i / ph) * cell));
          r.setAttribute('width', String(cell));
          r.setAttribute('height', String(cell));
          svg.appendChild(r);
          rects.push(r);
        }
        host.appendChild(svg);
        const svgTimes: number[] = [];
        for (let r = 0; r < (th * ph > 10000 ? 6 : 30); r++) {
          const values = frames[r % 8]!;
          const t0 = performance.now();
          for (let i = 0; i < rects.length; i++) {
            const k = Math.round(F.rampPosition(values[i]!, [2, 22], false, false) * 255);
            rects[i]!.setAttribute('fill', `rgb(${colours[k * 3]},${colours[k * 3 + 1]},${colours[k * 3 + 2]})`);
          }
          // Force the style and layout work the new fills cause (paint is excluded for both renderers).
          void getComputedStyle(rects[rects.length - 1]!).fill;
          svg.getBoundingClientRect();
          svgTimes.push(performance.now() - t0);
        }
        out[`svg ${th}×${ph}`] = { p50: pct(svgTimes.slice(1), 50), p95: pct(svgTimes.slice(1), 95) };
        host.innerHTML = '';
      }

      // Playback: 100 snapshots of 24×32 at one per animation frame; a frame later than 1.5 × 16.7 ms is dropped.
      // A first pass warms up (JIT, the scratch canvas, the garbage of the SVG run); the second is measured.
      const snaps = Array.from({ length: 100 }, (_, k) => field(768, k));
      let stamps: number[] = [];
      for (let pass = 0; pass < 2; pass++) {
        stamps = [];
        await new Promise<void>((done) => {
          let k = 0;
          const tick = (ts: number) => {
            stamps.push(ts);
            F.drawField(canvas, {
              thetaBins: 24,
              phiBins: 32,
              values: snaps[k]!,
              domain: [2, 22],
              diverging: false,
              sqrt: false,
              colours,
              offset: { theta: 0, phi: 0 },
              width: 768,
              height: 576,
            });
            if (++k < snaps.length) requestAnimationFrame(tick);
            else done();
          };
          requestAnimationFrame(tick);
        });
      }
      const gaps = stamps.slice(1).map((t, i) => t - stamps[i]!);
      return { out, dropped: gaps.filter((g) => g > 25).length, frameP95: pct(gaps, 95) };
    });
    console.log('Heatmap redraw in headless Chromium (median and p95 of the timed frames):');
    console.log('| renderer | field | p50 (ms) | p95 (ms) | target |\n|---|---|---:|---:|---:|');
    for (const [k, v] of Object.entries(results.out)) {
      const [renderer, size] = k.split(' ');
      const target = renderer === 'canvas' ? (size === '24×32' ? 2 : 8) : null;
      console.log(
        `| ${renderer} | ${size} | ${v.p50.toFixed(2)} | ${v.p95.toFixed(2)} | ` +
          `${target ? `≤ ${target} (${v.p50 <= target ? 'met' : 'NOT met'})` : '—'} |`,
      );
    }
    const c1 = results.out['canvas 24×32']!;
    const s1 = results.out['svg 24×32']!;
    const c2 = results.out['canvas 256×256']!;
    const s2 = results.out['svg 256×256']!;
    console.log(
      `canvas is ${(s1.p50 / c1.p50).toFixed(1)}× faster than SVG-per-cell at 24×32 and ` +
        `${(s2.p50 / c2.p50).toFixed(1)}× at 256×256`,
    );
    console.log(
      `Playback of 100 snapshots (24×32) one per frame: ${results.dropped} dropped frames (> 25 ms), frame ` +
        `interval p95 ${results.frameP95.toFixed(1)} ms (target: none ` +
        `dropped: ${results.dropped === 0 ? 'met' : 'NOT met'})`,
    );
  } finally {
    await browser.close();
  }
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
