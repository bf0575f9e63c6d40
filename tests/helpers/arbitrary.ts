import fc from 'fast-check';

/** A JSON Schema (OpenAPI 3.0 flavour: `nullable`) as z.toJSONSchema and the OpenAPI document write it. */
export type JsonSchema = Record<string, unknown>;

/**
 * fast-check arbitraries for the values a JSON Schema accepts (the generated suites: the contract gate and
 * the per-resource property tests). Covers what our schemas use: string (length, pattern, enum, formats
 * email/uri/date/date-time), integer/number (bounds), boolean, array (bounded to 3 items), object (required
 * keys always, optional keys sometimes), anyOf/oneOf, nullable, $ref (resolved through `root`), and `{}`.
 * Example: `fc.sample(arbitraryOf({ type: 'string', maxLength: 5 }), { seed: 1, numRuns: 3 })`.
 */
export function arbitraryOf(
  schema: JsonSchema,
  { root, optionalKeys = true }: { root?: JsonSchema; optionalKeys?: boolean } = {},
): fc.Arbitrary<unknown> {
  const go = (s: JsonSchema): fc.Arbitrary<unknown> => arbitraryOf(s, { root, optionalKeys });
  if (typeof schema.$ref === 'string') return go(resolveRef(root ?? {}, schema.$ref));
  const base = baseArbitrary(schema, go, optionalKeys);
  return schema.nullable === true && !Array.isArray(schema.enum) ? fc.oneof(base, fc.constant(null)) : base;
}

function baseArbitrary(
  s: JsonSchema,
  go: (s: JsonSchema) => fc.Arbitrary<unknown>,
  optionalKeys: boolean,
): fc.Arbitrary<unknown> {
  if (Array.isArray(s.enum)) return fc.constantFrom(...(s.enum as unknown[]));
  if ('const' in s) return fc.constant(s.const);
  const union = (s.anyOf ?? s.oneOf) as JsonSchema[] | undefined;
  if (union?.length) return fc.oneof(...union.map(go));
  if (Array.isArray(s.allOf) && s.allOf.length) return go(s.allOf[0] as JsonSchema);
  const type = Array.isArray(s.type) ? (s.type as string[]).find((t) => t !== 'null') : s.type;
  switch (type) {
    case 'string':
      return stringArbitrary(s);
    case 'integer':
    case 'number':
      return numberArbitrary(s, type === 'integer');
    case 'boolean':
      return fc.boolean();
    case 'null':
      return fc.constant(null);
    case 'array': {
      const min = Number(s.minItems ?? 0);
      const max = Math.max(min, Math.min(Number(s.maxItems ?? 3), 3));
      return fc.array(go((s.items as JsonSchema) ?? {}), { minLength: min, maxLength: max });
    }
    case 'object':
      return objectArbitrary(s, go, optionalKeys);
    default:
      if (s.properties) return objectArbitrary(s, go, optionalKeys);
      return fc.oneof(fc.string({ maxLength: 8 }), fc.integer(), fc.boolean(), fc.constant(null));
  }
}

function objectArbitrary(
  s: JsonSchema,
  go: (s: JsonSchema) => fc.Arbitrary<unknown>,
  optionalKeys: boolean,
): fc.Arbitrary<unknown> {
  const props = (s.properties ?? {}) as Record<string, JsonSchema>;
  const required = new Set((s.required as string[] | undefined) ?? []);
  const model = Object.fromEntries(Object.entries(props).map(([k, v]) => [k, go(v)]));
  const keys = Object.keys(props);
  if (!keys.length) {
    if (!s.additionalProperties || typeof s.additionalProperties !== 'object') return fc.constant({});
    // A record over an enum of keys (zod partialRecord: `propertyNames.enum`) takes only those keys.
    const names = (s.propertyNames as JsonSchema | undefined)?.enum;
    const key = Array.isArray(names)
      ? fc.constantFrom(...(names as string[]))
      : fc.string({ minLength: 1, maxLength: 8 });
    return fc.dictionary(key, go(s.additionalProperties as JsonSchema), { maxKeys: 3 });
  }
  return fc.record(model, {
    requiredKeys: optionalKeys ? keys.filter((k) => required.has(k)) : keys,
  });
}

function stringArbitrary(s: JsonSchema): fc.Arbitrary<string> {
  const min = Number(s.minLength ?? 0);
  const max = Math.max(min, Math.min(Number(s.maxLength ?? 40), 60));
  switch (s.format) {
    case 'email':
      return fc.emailAddress().filter((e) => e.length <= max && /^[\w.+-]+@[\w-]+(\.[\w-]+)+$/.test(e));
    case 'uri':
    case 'url':
      return fc.webUrl().filter((u) => u.length <= max);
    case 'date':
      return fc
        .date({ min: new Date('1971-01-01'), max: new Date('2099-12-31'), noInvalidDate: true })
        .map((d) => d.toISOString().slice(0, 10));
    case 'date-time':
      return fc
        .date({ min: new Date('1971-01-01'), max: new Date('2099-12-31'), noInvalidDate: true })
        .map((d) => d.toISOString());
    case 'binary':
      return fc.string({ maxLength: 20 });
  }
  if (typeof s.pattern === 'string') {
    return fc
      .stringMatching(new RegExp(s.pattern))
      .filter((v) => v.length >= min && v.length <= Number(s.maxLength ?? Infinity) && v.trim() === v);
  }
  // Printable text, no leading/trailing blanks (trimmed fields would read back changed), no NUL.
  return fc
    .string({ unit: 'grapheme', minLength: min, maxLength: max })
    .map((v) => v.replace(/\0/g, '').trim())
    .filter((v) => v.length >= min && v.length <= max);
}

function numberArbitrary(s: JsonSchema, integer: boolean): fc.Arbitrary<number> {
  const exMin = typeof s.exclusiveMinimum === 'number' ? s.exclusiveMinimum : null;
  const exMax = typeof s.exclusiveMaximum === 'number' ? s.exclusiveMaximum : null;
  let min = typeof s.minimum === 'number' ? s.minimum : exMin !== null ? exMin + (integer ? 1 : 1e-6) : -1e6;
  let max = typeof s.maximum === 'number' ? s.maximum : exMax !== null ? exMax - (integer ? 1 : 1e-6) : 1e6;
  if (s.exclusiveMinimum === true) min += integer ? 1 : 1e-6;
  if (s.exclusiveMaximum === true) max -= integer ? 1 : 1e-6;
  min = Math.max(min, -2_000_000_000);
  max = Math.min(max, 2_000_000_000);
  if (integer) return fc.integer({ min: Math.ceil(min), max: Math.floor(max) });
  return fc
    .double({ min, max, noNaN: true, noDefaultInfinity: true })
    .map((n) => Math.round(n * 100) / 100)
    .filter((n) => n >= min && n <= max);
}

function resolveRef(root: JsonSchema, ref: string): JsonSchema {
  let node: unknown = root;
  for (const part of ref.replace(/^#\//, '').split('/')) node = (node as JsonSchema)[part];
  return (node ?? {}) as JsonSchema;
}

/**
 * Values no field should accept or choke on: NUL, lone surrogates, ids past bigint, very long text, wrong
 * types, numbers past every column type.
 */
export const ODD_VALUES: readonly unknown[] = [
  'a\u0000b',
  '\ud800',
  'x\udfffy',
  '99999999999999999999999',
  '9223372036854775808',
  '-1',
  'x'.repeat(10_000),
  '',
  ' ',
  '=cmd|"/c calc"!A1',
  "'; DROP TABLE users; --",
  '%',
  '_',
  '\\',
  1e300,
  -1,
  2 ** 63,
  Number.MAX_SAFE_INTEGER,
  2_147_483_648,
  1.5,
  true,
  null,
  [],
  [null],
  {},
  { a: { b: 1 } },
];

export const oddValue: fc.Arbitrary<unknown> = fc.constantFrom(...ODD_VALUES);
