/**
 * Field dynamics of the UCS torus, as the reference kernel (torusfield_kernel.py) steps them:
 *  - inject: add a magnitude at one cell (and count it on the port);
 *  - diffuse: E'(θ,φ) = (1 − α_θ − α_φ)·E + α_θ/2·(E(θ+1) + E(θ−1)) + α_φ/2·(E(φ+1) + E(φ−1)),
 *    wrapping on both axes;
 *  - decay: every field × λ, except context_energy, which consult() manages.
 * Pure functions over flat row-major arrays (idx = θ·φ_bins + φ): they return new arrays.
 */

export const FIELD_DEFAULTS = { thetaMix: 0.06, phiMix: 0.04, decay: 0.995 } as const;

export function inject(
  values: readonly number[],
  phiBins: number,
  theta: number,
  phi: number,
  magnitude: number,
): number[] {
  const thetaBins = values.length / phiBins;
  const out = values.slice();
  const i = (((theta % thetaBins) + thetaBins) % thetaBins) * phiBins + (((phi % phiBins) + phiBins) % phiBins);
  out[i] = out[i]! + magnitude;
  return out;
}

export function diffuse(
  values: readonly number[],
  thetaBins: number,
  phiBins: number,
  thetaMix: number = FIELD_DEFAULTS.thetaMix,
  phiMix: number = FIELD_DEFAULTS.phiMix,
): number[] {
  const out = new Array<number>(values.length);
  const keep = 1 - thetaMix - phiMix;
  for (let th = 0; th < thetaBins; th++) {
    const up = ((th + 1) % thetaBins) * phiBins;
    const down = ((th - 1 + thetaBins) % thetaBins) * phiBins;
    const row = th * phiBins;
    for (let ph = 0; ph < phiBins; ph++) {
      const right = (ph + 1) % phiBins;
      const left = (ph - 1 + phiBins) % phiBins;
      out[row + ph] =
        keep * values[row + ph]! +
        (thetaMix / 2) * (values[up + ph]! + values[down + ph]!) +
        (phiMix / 2) * (values[row + right]! + values[row + left]!);
    }
  }
  return out;
}

export function decay(
  fields: Readonly<Record<string, readonly number[]>>,
  rate: number = FIELD_DEFAULTS.decay,
): Record<string, number[]> {
  const out: Record<string, number[]> = {};
  for (const [name, values] of Object.entries(fields))
    out[name] = name === 'context_energy' ? values.slice() : values.map((v) => v * rate);
  return out;
}

/** One step of the field as the kernel runs it between actions: diffuse the energy, then decay. */
export function step(
  fields: Readonly<Record<string, readonly number[]>>,
  thetaBins: number,
  phiBins: number,
  params = FIELD_DEFAULTS,
): Record<string, number[]> {
  const diffused: Record<string, readonly number[]> = { ...fields };
  if (fields.energy) diffused.energy = diffuse(fields.energy, thetaBins, phiBins, params.thetaMix, params.phiMix);
  return decay(diffused, params.decay);
}
