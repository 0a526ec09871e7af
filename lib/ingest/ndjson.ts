/** One JSON value a line; the format the importer and the ingest API take. */
export function toNdjson(values: readonly unknown[]): string {
  return values.map((v) => JSON.stringify(v)).join('\n') + (values.length ? '\n' : '');
}
