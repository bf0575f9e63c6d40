import { expect, it } from 'vitest';
import { addMessages } from '../../locales/additions.ts';
import { i18n, initI18n, loadAdminMessages } from './i18n.ts';

// An admin chunk can load, and add its messages (the e2e fixture's labels do at import), while start-up is
// still waiting for GET /api/v1, i.e. before i18next is initialised. The addition must neither throw nor be
// lost: the bundle loaded later carries it.
it('takes messages added before i18next is initialised into the bundles loaded later', async () => {
  expect(i18n.isInitialized).toBeFalsy();
  expect(() => addMessages('zh-CN', { resources: { early_birds: { name: '早鸟' } } })).not.toThrow();
  const provider = await initI18n('zh-CN');
  await loadAdminMessages();
  expect(provider.translate('resources.early_birds.name')).toBe('早鸟');
});
