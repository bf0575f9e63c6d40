import fc from 'fast-check';
import type { FieldValues, ResolverOptions } from 'react-hook-form';
import { afterAll, describe, expect, it } from 'vitest';
import * as z from 'zod';
import { defineResource, field, hasOperation, type Resource } from '../../../resources/define.ts';
import { bodySchemas } from '../../../resources/inline-lists.ts';
import { withoutSystemKeys } from '../../../resources/write.ts';
import { fieldErrors } from '../../../schemas/messages.ts';
import { validate } from '../../../server/core/validate.ts';
import { resources as fixtureRegistry } from '../../../tests/fixtures/registry.ts';
import { arbitraryOf, type JsonSchema } from '../../../tests/helpers/arbitrary.ts';
import { formPayload } from './formPayload.ts';
import { zodResolver } from './zodResolver.ts';

const OPTIONS = { fields: {}, shouldUseNativeValidation: false } as ResolverOptions<FieldValues>;
const identity = (key: string) => key;

async function clientRejects(resource: Resource, values: Record<string, unknown>, isEdit: boolean) {
  const resolver = zodResolver({ resource, translate: identity, isEdit, registry: fixtureRegistry });
  const { errors } = await resolver(values, undefined, OPTIONS);
  return Object.keys(errors).sort();
}

/**
 * What the server answers for the body the form sends: operations.ts's own call (`validate` of
 * server/core/validate.ts over the body schema, system keys dropped), its 422 `errors` map's fields
 * (top level).
 */
function serverRejects(resource: Resource, values: Record<string, unknown>, isEdit: boolean): string[] {
  const body = formPayload({ resource, values, isEdit, registry: fixtureRegistry });
  const schemas = bodySchemas(resource, fixtureRegistry);
  try {
    validate(isEdit ? schemas.update : schemas.create, withoutSystemKeys(body));
    return [];
  } catch (error) {
    const zod = (error as { zod?: z.ZodError }).zod;
    if (!zod) throw error;
    const fields = Object.keys(fieldErrors(zod, identity)).map((path) => path.split('.')[0]!);
    return [...new Set(fields)].sort();
  }
}

// ------------------------------------------------------------------------------------------ unit checks

const gadgets = fixtureRegistry.find((r) => r.name === 'gadgets')!;
const VALID_GADGET = { name: 'Widget', sku: 'W-1', price: 3, stock: 2 };

describe('zodResolver', () => {
  it('runs the schema’s cross-field rule and puts its message under the field it names (issue 35)', async () => {
    const bookings = defineResource({
      name: 'form_bookings',
      endpoint: 'v1/test/form-bookings',
      permission: 'test.form_bookings',
      schema: z
        .object({
          starts_on: field(z.iso.date(), {}),
          ends_on: field(z.iso.date().optional(), {}),
        })
        .superRefine((v, ctx) => {
          if (v.starts_on && v.ends_on && v.ends_on < v.starts_on)
            ctx.addIssue({
              code: 'custom',
              path: ['ends_on'],
              message: 'resources.form_bookings.ends_before',
            });
        }),
    });
    const translate = (key: string) => `T(${key})`;
    for (const isEdit of [false, true]) {
      const resolver = zodResolver({ resource: bookings, translate, isEdit, registry: [bookings] });
      const bad = await resolver({ starts_on: '2026-05-02', ends_on: '2026-05-01' }, undefined, OPTIONS);
      expect(bad.errors).toEqual({
        ends_on: expect.objectContaining({ message: 'T(resources.form_bookings.ends_before)' }),
      });
      const good = await resolver({ starts_on: '2026-05-01', ends_on: '2026-05-02' }, undefined, OPTIONS);
      expect(good.errors).toEqual({});
    }
  });

  it('accepts a valid create form and returns the values untouched', async () => {
    const resolver = zodResolver({ resource: gadgets, translate: identity, isEdit: false });
    const values = { ...VALID_GADGET, description: '' };
    expect(await resolver(values, undefined, OPTIONS)).toEqual({ values, errors: {} });
  });

  it('words each issue with the translated validation key, the first per field', async () => {
    const translate = (key: string) => `T(${key})`;
    const resolver = zodResolver({ resource: gadgets, translate, isEdit: false });
    const { errors } = await resolver({ sku: 'W-2', price: 3, email: 'nope' }, undefined, OPTIONS);
    expect(errors).toMatchObject({
      name: { message: 'T(validation.required)' },
      email: { message: 'T(validation.email)' },
    });
  });

  it('on edit, a blanked required field is "Cannot be empty"; a blanked optional one is cleared', async () => {
    const resolver = zodResolver({ resource: gadgets, translate: identity, isEdit: true });
    const blanked = await resolver({ ...VALID_GADGET, name: '' }, undefined, OPTIONS);
    expect(Object.keys(blanked.errors)).toEqual(['name']);
    expect(blanked.errors.name?.message).toBe('validation.required');
    const cleared = await resolver({ ...VALID_GADGET, released_on: '' }, undefined, OPTIONS);
    expect(cleared.errors).toEqual({});
  });

  it('on edit, a blank secret keeps the stored one', async () => {
    const resolver = zodResolver({ resource: gadgets, translate: identity, isEdit: true });
    expect((await resolver({ ...VALID_GADGET, secret: '' }, undefined, OPTIONS)).errors).toEqual({});
  });

  it('puts an inline row error under <list>.<index>.<field>, like the server', async () => {
    const [key] = Object.entries(gadgets.options.hasMany ?? {}).find(([, spec]) => spec.inline)!;
    const resolver = zodResolver({
      resource: gadgets,
      translate: identity,
      isEdit: false,
      registry: fixtureRegistry,
    });
    const { errors } = await resolver({ ...VALID_GADGET, [key]: [{ name: '' }] }, undefined, OPTIONS);
    const row = (errors[key] as unknown as Record<string, Record<string, { message: string }>>)[0]!;
    expect(Object.keys(row)).toContain('name');
    expect(serverRejects(gadgets, { ...VALID_GADGET, [key]: [{ name: '' }] }, false)).toEqual([key]);
  });
});

// ------------------------------------------------------------------------- generated agreement

/**
 * The client's forms and the server's body validation use the very same write schema (resources/write.ts),
 * so for every registered resource (the product's and the test fixture's), on create and on edit, for
 * generated valid records and for each writable field given odd values of every kind, the form rejects
 * exactly the fields the server's 422 names. (Rules that need the database, such as a unique value, a
 * dictionary entry or a referenced record that exists, are the server's alone and not part of this.)
 */
const SEED = 11_01;
const VALID_RUNS = 8;
/** Values of every kind, each tried in every writable field. */
const ODD_VALUES: unknown[] = [
  123,
  -1,
  1.5,
  2 ** 31,
  Number.MAX_SAFE_INTEGER,
  '9'.repeat(20),
  'x'.repeat(300),
  '',
  ' ',
  'a\u0000b',
  'lone \ud800',
  true,
  'true',
  '1',
  [],
  ['1', '2'],
  {},
  { nested: 'x' },
  null,
  'not-an-email',
  '2026-13-45',
  '=1+1',
];

let generated = 0;
afterAll(() => {
  console.info(`[zodResolver agreement] seed ${SEED}: ${generated} generated cases`);
});

const writable = (r: Resource) => r.fields.filter((f) => !f.meta.readOnly);

function recordArbitrary(r: Resource): fc.Arbitrary<Record<string, unknown>> {
  const model = Object.fromEntries(
    writable(r).map((f) => {
      const json = z.toJSONSchema(f.schema, { io: 'input', unrepresentable: 'any', target: 'openapi-3.0' });
      return [f.name, arbitraryOf(json as JsonSchema)];
    }),
  );
  const required = writable(r)
    .filter((f) => !f.schema.safeParse(undefined).success)
    .map((f) => f.name);
  return fc.record(model, { requiredKeys: required }) as fc.Arbitrary<Record<string, unknown>>;
}

const formResources = fixtureRegistry.filter((r) => hasOperation(r, 'create') || hasOperation(r, 'update'));

describe.each(formResources.map((r, i) => [r.name, r, i] as const))(
  '%s: form and server reject the same fields (generated)',
  (_name, resource, index) => {
    const modes = [
      ...(hasOperation(resource, 'create') ? [false] : []),
      ...(hasOperation(resource, 'update') ? [true] : []),
    ];

    it.each(modes.map((isEdit) => [isEdit ? 'edit' : 'create', isEdit] as const))(
      '%s',
      async (_mode, isEdit) => {
        const records = fc.sample(recordArbitrary(resource), { seed: SEED + index, numRuns: VALID_RUNS });
        let accepted = 0;
        let rejected = 0;
        for (const record of records) {
          const server = serverRejects(resource, record, isEdit);
          expect(await clientRejects(resource, record, isEdit), JSON.stringify(record)).toEqual(server);
          generated += 1;
          if (!server.length) accepted += 1;
        }
        const base = records.find((record) => !serverRejects(resource, record, isEdit)) ?? records[0]!;
        for (const field of writable(resource)) {
          for (const value of ODD_VALUES) {
            const values = { ...base, [field.name]: value };
            const server = serverRejects(resource, values, isEdit);
            const client = await clientRejects(resource, values, isEdit);
            expect(client, `${field.name} = ${JSON.stringify(value)}`).toEqual(server);
            generated += 1;
            if (server.includes(field.name)) rejected += 1;
          }
        }
        // The generated values do both: valid records pass, and odd values are refused somewhere.
        expect(accepted).toBeGreaterThan(0);
        expect(rejected).toBeGreaterThan(0);
      },
    );
  },
);
