import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, screen, within } from '@testing-library/react';
import { beforeAll, describe, expect, it } from 'vitest';
import { MemoryRouter } from 'react-router-dom';
import { initI18n, loadAdminMessages } from '../../i18n/i18n.ts';
import { RecentActivityCard } from './RecentActivityCard.tsx';

beforeAll(async () => {
  await initI18n('en');
  await loadAdminMessages(['settings', 'system']);
});

const operator = { id: '1', username: 'admin', name: 'Admin' };
/** A role change as a reader without the roles page gets it, and a staff change as a reader of staff. */
const RECENT = [
  {
    id: '2',
    action: 'roles.update',
    subject_type: 'roles',
    subject_id: '4',
    changes: {},
    changes_withheld: ['name', 'permissions'],
    subject: null,
    names: {},
    operator,
    created_at: '2026-11-26T08:00:00.000Z',
  },
  {
    id: '1',
    action: 'staff.update',
    subject_type: 'staff',
    subject_id: '3',
    changes: { name: ['Li Lei', 'Li Lei 2'] },
    changes_withheld: [],
    subject: { label: 'Li Lei 2', deleted: false },
    names: {},
    operator,
    created_at: '2026-11-26T07:00:00.000Z',
  },
];

describe('recent activity with withheld values', () => {
  it('says which fields changed without values, and shows the other rows as before', () => {
    const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
    render(
      <MemoryRouter>
        <QueryClientProvider client={client}>
          <RecentActivityCard recent={RECENT} />
        </QueryClientProvider>
      </MemoryRouter>,
    );
    const list = screen.getByRole('list', { name: 'Recent activity' });
    const [withheld, shown] = within(list)
      .getAllByRole('listitem')
      .filter((li) => li.parentElement === list);
    expect(withheld!.textContent).toContain('Updated role · Role #4');
    expect(withheld!.textContent).toContain('Changed, values not shown: Name, Permissions');
    expect(shown!.textContent).toContain('Name: Li Lei → Li Lei 2');
    expect(shown!.textContent).not.toContain('values not shown');
  });

  it("names the first administrator's staff record instead of its id", () => {
    const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
    const bootstrap = {
      id: '1',
      action: 'system.bootstrap',
      subject_type: 'users',
      subject_id: '1',
      changes: { username: [null, 'admin'], staff_id: [null, 1] },
      changes_withheld: [],
      subject: { label: 'admin', deleted: false },
      names: { staff: { '1': 'Admin' } },
      operator: null,
      created_at: '2026-11-26T06:00:00.000Z',
    };
    render(
      <MemoryRouter>
        <QueryClientProvider client={client}>
          <RecentActivityCard recent={[bootstrap]} />
        </QueryClientProvider>
      </MemoryRouter>,
    );
    const list = screen.getByRole('list', { name: 'Recent activity' });
    expect(list.textContent).toContain('Staff record: — → Admin');
    expect(list.textContent).not.toMatch(/→ 1\b/);
  });
});
