/**
 * Reading the OpenAPI document as a strict client would (issue 33): closed objects for validating real
 * answers, and the figures the issue tracks (named schemas, untyped properties).
 */
type JsonSchema = Record<string, unknown>;

/**
 * A copy of a schema where every object that lists its `properties` and says nothing of more keys refuses
 * them (`additionalProperties: false`). Objects under an `allOf` are left open (each part sees only its
 * own keys); a documented map (`additionalProperties: {...}`) stays as it is.
 */
export function closed(node: unknown, underAllOf = false): unknown {
  if (!node || typeof node !== 'object') return node;
  if (Array.isArray(node)) return node.map((n) => closed(n, underAllOf));
  const o = node as JsonSchema;
  const out: JsonSchema = {};
  for (const [key, value] of Object.entries(o)) out[key] = closed(value, key === 'allOf');
  if (o.properties && typeof o.properties === 'object' && o.additionalProperties === undefined && !underAllOf)
    out.additionalProperties = false;
  return out;
}

/**
 * Properties with no type at all (`{}`, or an array whose items are `{}`), by where they are. `freeJson`
 * names properties documented as any JSON on purpose (a job's `data`, an audit row's `changes`).
 */
export function untypedProperties(doc: JsonSchema): string[] {
  const out: string[] = [];
  const typed = (s: unknown): boolean => {
    if (!s || typeof s !== 'object') return false;
    const o = s as JsonSchema;
    if (o.type || o.$ref || o.enum) return true;
    const union = (o.anyOf ?? o.oneOf ?? o.allOf) as unknown[] | undefined;
    return Boolean(union?.length && union.every(typed));
  };
  const walk = (node: unknown, where: string): void => {
    if (!node || typeof node !== 'object') return;
    if (Array.isArray(node)) return node.forEach((n, i) => walk(n, `${where}[${i}]`));
    const o = node as JsonSchema;
    if (o.properties && typeof o.properties === 'object')
      for (const [key, value] of Object.entries(o.properties as JsonSchema)) {
        const v = value as JsonSchema;
        if (v && v['x-any-json']) continue;
        if (!typed(v)) out.push(`${where}.${key}`);
        else if (v?.type === 'array' && !typed(v.items)) out.push(`${where}.${key}[]`);
      }
    for (const [key, value] of Object.entries(o)) walk(value, `${where}/${key}`);
  };
  walk(doc.paths, '');
  walk(doc.components, '#/components');
  return out;
}
