import { screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { fakeFetch, listEnvelope } from '../testing/fakeFetch.ts';
import { renderEngine } from '../testing/renderEngine.tsx';

/**
 * The history panel names references as the activity log does (issue 36): by the referenced record's
 * representation, read through the list call of its resource (`id:in`), not by id; an id the call does not
 * answer (a record gone, or out of the caller's reach) stays an id.
 */
vi.setConfig({ testTimeout: 60_000 });

afterEach(() => {
  vi.unstubAllGlobals();
  sessionStorage.clear();
});

const contact = { id: '1', name: 'Alice', email: 'a@example.com', department_id: '12', role_ids: ['7'] };
const history = [
  {
    version: 2,
    action: 'update',
    at: '2026-11-27T10:00:00.000Z',
    actor: { id: '1', username: 'admin', name: 'Admin' },
    changes: { department_id: ['11', '12'], role_ids: [['7', '99'], ['7']], name: ['Al', 'Alice'] },
  },
  {
    version: 1,
    action: 'create',
    at: '2026-11-27T09:00:00.000Z',
    actor: null,
    changes: { name: [null, 'Al'] },
  },
];

describe('the history panel', () => {
  it('shows references by their labels, not their ids', async () => {
    fakeFetch((call) => {
      if (call.path === '/api/v1/test/contacts/1/history')
        return { body: { code: 200, data: listEnvelope(history).data } };
      if (call.path === '/api/v1/test/contacts/1') return { body: { code: 200, data: contact } };
      if (call.path === '/api/v1/test/departments')
        return {
          body: listEnvelope([
            { id: '11', name: 'Sales' },
            { id: '12', name: 'Support' },
          ]),
        };
      if (call.path === '/api/v1/test/roles') return { body: listEnvelope([{ id: '7', name: 'Editor' }]) };
      return { body: listEnvelope([]) };
    });
    await renderEngine({ path: '/settings/contacts/1' });
    const panel = await screen.findByRole('region', { name: 'History' });
    const latest = await within(panel).findByText(/Sales → Support/);
    expect(latest).toBeTruthy();
    // Role 99 is not answered (gone, or not readable): it stays an id beside the named one.
    expect(await within(panel).findByText(/Editor, 99 → Editor/)).toBeTruthy();
    expect(within(panel).queryByText(/11 → 12/)).toBeNull();
  });
});
