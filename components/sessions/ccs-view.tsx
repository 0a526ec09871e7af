import { CCS_FIELDS, type CcsTerms } from '@/lib/ccs/contract';
import { MemoryText } from '@/components/ui/memory-text';

/** The nine CCS fields as term chips, in schema order; extra fields an agent sent come last. */
export function CcsView({ ccs }: { ccs: CcsTerms }) {
  const fields = [...CCS_FIELDS.filter((f) => ccs[f]?.length), ...Object.keys(ccs).filter((f) => !(CCS_FIELDS as readonly string[]).includes(f))];
  if (!fields.length) return <span className="faint">empty CCS</span>;
  return (
    <div className="ccs-grid">
      {fields.map((f) => (
        <div key={f} style={{ display: 'contents' }}>
          <div className="field">{f}</div>
          <div>
            {(ccs[f] ?? []).map((t, i) => (
              <span key={i} className="term">
                <MemoryText text={t} />
              </span>
            ))}
          </div>
        </div>
      ))}
    </div>
  );
}
