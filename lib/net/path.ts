/** A URL path segment decoded, or as it came when it is not valid percent-encoding (never a 500). */
export function decodeSegment(s: string): string {
  try {
    return decodeURIComponent(s);
  } catch {
    return s;
  }
}
