import { PAPERS, type PaperId } from '@/lib/papers';

/** A paper named by its title (in italics, as a citation), and where in it when given ("§5.1", "Figure 4"). */
export function Paper({ id, at }: { id: PaperId; at?: string }) {
  return (
    <>
      <cite>{PAPERS[id]}</cite>
      {at ? ` (${at})` : null}
    </>
  );
}
