import type { AppModule } from '../types.ts';

/** Sign-in, registration, codes, password reset and the account calls (issue 4). */
export const authModule: AppModule = {
  name: 'auth',
  register() {},
};
