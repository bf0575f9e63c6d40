import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { loginSchema } from './auth.ts';
import { LOGIN_PASSWORD_MAX, LOGIN_USERNAME_MAX, isPlainLogin } from './loginBounds.ts';

/** What the server's parse says of a sign-in's fields. */
const schemaAccepts = (username: string, password: string) =>
  loginSchema.safeParse({ username, password, remember: false }).success;

describe('isPlainLogin (the sign-in page sends these without loading zod)', () => {
  it('accepts exactly what loginSchema accepts, at and around every bound', () => {
    const edges = [
      '',
      ' ',
      '\t\n',
      'a',
      ' li ',
      'x'.repeat(LOGIN_USERNAME_MAX),
      'x'.repeat(LOGIN_USERNAME_MAX + 1),
      ` ${'x'.repeat(LOGIN_USERNAME_MAX)} `,
      '😀'.repeat(LOGIN_USERNAME_MAX / 2 + 1),
      'p'.repeat(LOGIN_PASSWORD_MAX),
      'p'.repeat(LOGIN_PASSWORD_MAX + 1),
      '\u00a0\u3000',
    ];
    for (const username of edges) {
      for (const password of edges) {
        expect(isPlainLogin({ username, password }), JSON.stringify({ username, password })).toBe(
          schemaAccepts(username, password),
        );
      }
    }
  });

  it('agrees with loginSchema on random fields', () => {
    const text = fc.oneof(fc.string({ maxLength: 8 }), fc.string({ unit: 'grapheme', maxLength: 8 }));
    fc.assert(
      fc.property(text, text, (username, password) => {
        expect(isPlainLogin({ username, password })).toBe(schemaAccepts(username, password));
      }),
      { seed: 37, numRuns: 500 },
    );
  });
});
