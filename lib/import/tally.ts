import type { IngestResult } from '@/lib/ingest/contract';
import type { ConvertedFile } from './files';

/** What became of one imported file's records. */
export interface FileTally {
  path: string;
  records: number;
  /** Answers received so far, by status. */
  accepted: number;
  duplicate: number;
  rejected: number;
  /** Another version is stored under the id and was kept. */
  conflict: number;
  superseded: number;
}

/** The file a record of the import came from, by its place among all the files' envelopes, and its place there. */
export function locateRecord(files: readonly ConvertedFile[], index: number): { path: string; record: number } | null {
  let start = 0;
  for (const f of files) {
    if (index < start + f.envelopes.length) return { path: f.path, record: index - start + 1 };
    start += f.envelopes.length;
  }
  return null;
}

/**
 * The answers of an import, file by file: `results` holds one answer per envelope in the files' order (the answers
 * of each request placed at its offset), missing where no answer has come yet.
 */
export function tallyByFile(
  files: readonly ConvertedFile[],
  results: readonly (IngestResult | undefined)[],
): FileTally[] {
  let start = 0;
  return files.map((f) => {
    const t: FileTally = {
      path: f.path,
      records: f.envelopes.length,
      accepted: 0,
      duplicate: 0,
      rejected: 0,
      conflict: 0,
      superseded: 0,
    };
    for (let i = start; i < start + f.envelopes.length; i++) {
      const r = results[i];
      if (r) t[r.status]++;
    }
    start += f.envelopes.length;
    return t;
  });
}

/** One warning of an import, said once for all the records it came with. */
export interface WarningGroup {
  /** The field, e.g. `data.halucination`. */
  path: string;
  message: string;
  /** How many records came with it. */
  records: number;
  /** The first such record's place among all the files' envelopes (for `locateRecord`) and its id. */
  first: number;
  firstId: string;
}

/**
 * The warnings an import's answers carry (fields kept as the agent's own that look like slips for known ones), one
 * per field and message, in the order they were first met: an agent that misspells a field does so in every record.
 */
export function groupWarnings(results: readonly (IngestResult | undefined)[]): WarningGroup[] {
  const groups = new Map<string, WarningGroup>();
  results.forEach((r, i) => {
    if (!r || !('warnings' in r) || !r.warnings) return;
    for (const w of r.warnings) {
      const key = `${w.path}\0${w.message}`;
      const g = groups.get(key);
      if (g) g.records++;
      else groups.set(key, { path: w.path, message: w.message, records: 1, first: i, firstId: r.id });
    }
  });
  return [...groups.values()];
}
