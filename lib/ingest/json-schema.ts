import { z } from 'zod';
import { DATA_SCHEMAS, RECORD_TYPES, envelopeSchema } from './contract';

/** JSON Schemas (draft 2020-12) of the envelope and of each record type's `data`, generated from the zod contracts. */
export function ingestJsonSchemas() {
  const data = Object.fromEntries(
    RECORD_TYPES.map((t) => [t, z.toJSONSchema(DATA_SCHEMAS[t], { io: 'input', unrepresentable: 'any' })]),
  );
  return {
    envelope: z.toJSONSchema(envelopeSchema, { io: 'input', unrepresentable: 'any' }),
    recordTypes: RECORD_TYPES,
    data,
  };
}
