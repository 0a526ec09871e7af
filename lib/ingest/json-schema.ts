import { z } from 'zod';
import { ANNOTATION_TARGET_FIELDS, DATA_SCHEMAS, RECORD_TYPES, envelopeSchema } from './contract';

/**
 * What an annotation's refinements require, in JSON Schema's own words (zod's refinements do not translate): the
 * fields its target needs, a name and a value together, and a score or a comment.
 */
function annotationRules() {
  return {
    allOf: [
      ...Object.entries(ANNOTATION_TARGET_FIELDS).map(([target, fields]) => ({
        if: { properties: { target: { const: target } }, required: ['target'] },
        then: { required: [...fields] },
      })),
      { anyOf: [{ required: ['name', 'value'] }, { required: ['comment'] }] },
    ],
    dependentRequired: { name: ['value'], value: ['name'] },
  };
}

/** JSON Schemas (draft 2020-12) of the envelope and of each record type's `data`, generated from the zod contracts. */
export function ingestJsonSchemas() {
  const data = Object.fromEntries(
    RECORD_TYPES.map((t) => {
      const schema = z.toJSONSchema(DATA_SCHEMAS[t], { io: 'input', unrepresentable: 'any' });
      return [t, t === 'annotation' ? { ...schema, ...annotationRules() } : schema];
    }),
  );
  return {
    envelope: z.toJSONSchema(envelopeSchema, { io: 'input', unrepresentable: 'any' }),
    recordTypes: RECORD_TYPES,
    data,
  };
}
