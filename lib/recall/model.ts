/**
 * The embedding models recall can use. The bundled one ships in `public/models/` (built by
 * `npm run model:build`) and works offline; a hub model is an opt-in for users who are online.
 */
export const MODEL_ID = 'mnemoscope/static-en-256';
export const MODEL_DIMS = 256;

export interface ModelChoice {
  id: string;
  label: string;
  dims: number;
  /** Served by this app (true) or fetched from the Hugging Face hub (false). */
  bundled: boolean;
  sizeMb: number;
}

export const MODELS: readonly ModelChoice[] = [
  { id: MODEL_ID, label: 'Mnemoscope static (bundled, offline)', dims: MODEL_DIMS, bundled: true, sizeMb: 26 },
  {
    id: 'Xenova/all-MiniLM-L6-v2',
    label: 'all-MiniLM-L6-v2 (hub, needs network once)',
    dims: 384,
    bundled: false,
    sizeMb: 23,
  },
];

/** Where a browser keeps the model it was told to use (localStorage). */
export const MODEL_CHOICE_KEY = 'mnemoscope.recall.model';

export function modelChoice(id: string): ModelChoice {
  return MODELS.find((m) => m.id === id) ?? MODELS[0]!;
}

/**
 * Where transformers.js fetches a model from (the settings it reads from `env`). The bundled model is fetched from this
 * app as if it were a hub: transformers.js then probes each file's size (for the progress bar) with a one-byte range
 * request, where as a "local" model it fetched every file whole twice, once to learn its size and once to load it
 * (52 MB instead of 26 on a first visit).
 */
export function modelSource(
  choice: ModelChoice,
  origin: string,
  hub: HubSettings,
): HubSettings & {
  allowLocalModels: boolean;
  allowRemoteModels: boolean;
} {
  return {
    allowLocalModels: false,
    allowRemoteModels: true,
    // The hub (only for a model the user picked in Settings, never by default) is transformers.js's own setting.
    ...(choice.bundled ? { remoteHost: `${origin}/`, remotePathTemplate: 'models/{model}/' } : hub),
  };
}

/** Where transformers.js fetches remote models from, as it ships (passed in, so this app names no outside host). */
export interface HubSettings {
  remoteHost: string;
  remotePathTemplate: string;
}
