/**
 * How many cases the generated suites (contract.test.ts, resource-properties.test.ts) generate:
 * `GENERATED_CASES=full` (the default, `npm test` on PGlite) or `sample` (what `npm run test:pg` sets): the
 * same operations and resources with fewer seeded cases each, so every one still meets PostgreSQL once
 * without running the whole gate twice. Example: `const RUNS = bySize({ full: 5, sample: 2 })`.
 */
const value = process.env.GENERATED_CASES ?? 'full';
if (value !== 'full' && value !== 'sample') {
  throw new Error(`GENERATED_CASES is "${value}": use full or sample`);
}
export const generatedCases: 'full' | 'sample' = value;

export function bySize<T>(sizes: { full: T; sample: T }): T {
  return sizes[generatedCases];
}
