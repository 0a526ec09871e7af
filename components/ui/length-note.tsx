import { fmtInt } from '@/lib/format';

/**
 * A text field's length against the server's limit, said under it once it is near (from 90%); over, by how much
 * (the form's button is then off). A `maxLength` on the field would cut a paste short without a word. The live
 * region is always in the page, empty until then, so that its first words are announced; place it outside the
 * field's label (it would join the field's name).
 */
export function LengthNote({ id, value, max }: { id: string; value: string; max: number }) {
  const n = value.length;
  return (
    <span id={id} className={n > max ? 'field-error' : 'faint'} role="status" data-testid="length-note">
      {n < max * 0.9
        ? null
        : n > max
          ? `${fmtInt(n)} characters: ${fmtInt(n - max)} over the limit of ${fmtInt(max)}`
          : `${fmtInt(n)} of ${fmtInt(max)} characters`}
    </span>
  );
}

/** The props that tie a field to its LengthNote: described by it once it speaks, invalid when over. */
export function lengthProps(id: string, value: string, max: number) {
  return {
    'aria-describedby': value.length >= max * 0.9 ? id : undefined,
    'aria-invalid': value.length > max ? (true as const) : undefined,
  };
}
