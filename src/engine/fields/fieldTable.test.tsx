import { screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import * as z from 'zod';
import { defineResource, dictionary, field, money } from '../../../resources/define.ts';
import { fakeFetch, listEnvelope } from '../testing/fakeFetch.ts';
import { renderEngine } from '../testing/renderEngine.tsx';

// The renderers of money, dictionary, file/image and a show page's Markdown are not loaded with every list:
// a screen showing them loads them before it paints, so their cells never paint empty or late.
vi.setConfig({ testTimeout: 20_000 });
afterEach(() => vi.unstubAllGlobals());

const prices = defineResource({
  name: 'prices',
  endpoint: 'v1/test/prices',
  permission: 'test.prices',
  recordRepresentation: 'name',
  schema: z.object({
    name: field(z.string().min(1), { search: 'like', list: true }),
    price: money({ list: true }),
    category: dictionary('contact_category', { list: true }),
    notes: field(z.string().optional(), { input: 'markdown', list: true }),
  }),
});

const widget = { id: '1', name: 'Widget', price: 2499, category: 'vip', notes: 'A **bold** claim' };

function server() {
  return fakeFetch((call) => {
    if (call.path === '/api/v1/dictionary/options/contact_category')
      return {
        body: {
          code: 200,
          data: { slug: 'contact_category', data: [{ label: 'VIP customer', value: 'vip' }] },
        },
      };
    if (call.path === '/api/v1/test/prices/1') return { body: { code: 200, data: widget } };
    return { body: listEnvelope([widget]) };
  });
}

describe('field kinds loaded on demand', () => {
  it('paints a list money column with its row, and a dictionary value as its label', async () => {
    server();
    await renderEngine({ path: '/settings/prices', extraResources: [prices] });
    // The first time the row's name shows, its price is there too: no cell waits for its renderer.
    const row = (await screen.findByText('Widget')).closest('tr') as HTMLElement;
    expect(within(row).getByText('CN¥25')).toBeTruthy();
    expect(await within(row).findByText('VIP customer')).toBeTruthy();
    // A list cell shows Markdown as its text.
    expect(within(row).getByText('A **bold** claim')).toBeTruthy();
  });

  it('renders the Markdown of a show page as elements', async () => {
    server();
    await renderEngine({ path: '/settings/prices/1/show', extraResources: [prices] });
    const bold = await screen.findByText('bold');
    expect(bold.tagName).toBe('STRONG');
    expect(screen.getByText('CN¥25')).toBeTruthy();
  });
});
