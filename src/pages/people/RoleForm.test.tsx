import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { fakeFetch, listEnvelope, type FakeCall } from '../../engine/testing/fakeFetch.ts';
import { renderEngine } from '../../engine/testing/renderEngine.tsx';
import { RoleCreate } from './RoleCreate.tsx';
import { RoleEdit } from './RoleEdit.tsx';

const role = { id: '1', name: 'East sales', intro: '', sort: 0, state: true, permissions: { menu_ids: [] } };
const tree = [
  {
    id: '10',
    title: 'Sales',
    parent_id: '0',
    sort: 0,
    state: true,
    children: [{ id: '11', title: 'East', parent_id: '10', sort: 0, state: true, children: [] }],
  },
];
const overrides = { roles: { edit: RoleEdit, create: RoleCreate } };

vi.setConfig({ testTimeout: 30_000 });

afterEach(() => {
  vi.unstubAllGlobals();
  sessionStorage.clear();
});

function api(saved: Record<string, unknown> = role) {
  return fakeFetch((call: FakeCall) => {
    if (call.path === '/api/v1/user/department/tree') return { body: { code: 200, data: tree } };
    if (call.method === 'PATCH' || call.method === 'POST')
      return { body: { code: 200, data: { ...saved, ...(call.body as object) } } };
    if (call.path === '/api/v1/test/roles/1') return { body: { code: 200, data: saved } };
    return { body: listEnvelope([]) };
  });
}

describe('the role editor: data scope and field access', () => {
  it('sends the chosen scope, its departments and a field’s level', async () => {
    const calls = api();
    await renderEngine({ path: '/settings/roles/1', overrides });
    const scope = await screen.findByRole('radiogroup', { name: 'Data scope' });
    expect(within(scope).getByRole('radio', { name: 'All data' })).toHaveProperty('checked', true);
    expect(screen.queryByRole('group', { name: 'Departments this role sees' })).toBeNull();
    await userEvent.click(within(scope).getByRole('radio', { name: 'Chosen departments' }));
    const departments = await screen.findByRole('group', { name: 'Departments this role sees' });
    await userEvent.click(await within(departments).findByRole('checkbox', { name: 'East' }));

    const toggle = screen.getByRole('button', { name: /^Staff: field access \(0 restricted\)/ });
    expect(toggle.getAttribute('aria-expanded')).toBe('false');
    await userEvent.click(toggle);
    expect(toggle.getAttribute('aria-expanded')).toBe('true');
    expect(screen.getByRole('radio', { name: 'Phone: Writable' })).toHaveProperty('checked', true);
    await userEvent.click(screen.getByRole('radio', { name: 'Phone: Hidden' }));
    // The radios of a field share its name (the browser's arrow keys move within them).
    const emailRead = screen.getAllByRole('radio', { name: 'Email: Read-only' })[0]!;
    expect(emailRead.getAttribute('name')).toBe('staff.email');
    await userEvent.click(emailRead);
    expect(screen.getByRole('button', { name: /^Staff: field access \(2 restricted\)/ })).toBeTruthy();

    await userEvent.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(calls.some((c) => c.method === 'PATCH')).toBe(true));
    expect(calls.find((c) => c.method === 'PATCH')?.body).toEqual({
      data_scope: 'custom',
      data_scope_department_ids: ['11'],
      field_access: { 'staff.phone': 'hidden', 'staff.email': 'read' },
    });
  });

  it('reads a saved scope and field access back, and sends nothing new when saved untouched', async () => {
    const calls = api({
      ...role,
      data_scope: 'department',
      data_scope_department_ids: [],
      field_access: { 'staff.phone': 'read' },
    });
    await renderEngine({ path: '/settings/roles/1', overrides, locale: 'zh-CN' });
    const scope = await screen.findByRole('radiogroup', { name: '数据范围' });
    await waitFor(() =>
      expect(within(scope).getByRole('radio', { name: '仅本部门' })).toHaveProperty('checked', true),
    );
    await userEvent.click(screen.getByRole('button', { name: /字段权限（1 项受限）/ }));
    expect(screen.getByRole('radio', { name: '手机号: 只读' })).toHaveProperty('checked', true);
    await userEvent.type(screen.getByRole('textbox', { name: /^名称/ }), '!');
    await userEvent.click(screen.getByRole('button', { name: '保存' }));
    await waitFor(() => expect(calls.some((c) => c.method === 'PATCH')).toBe(true));
    expect(calls.find((c) => c.method === 'PATCH')?.body).toEqual({ name: 'East sales!' });
  });
});
