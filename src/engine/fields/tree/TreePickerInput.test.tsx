import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import Cookies from 'js-cookie';
import { useEffect } from 'react';
import { AdminContext, Form, useResourceDefinitionContext } from 'react-admin';
import { useWatch } from 'react-hook-form';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Locale } from '../../../../locales/languages.ts';
import { createDataProvider } from '../../data/dataProvider.ts';
import { findDescriptor, treeOptionsOf } from '../../data/registry.ts';
import { renderInput } from '../inputTable.tsx';
import { fakeFetch, listEnvelope } from '../../testing/fakeFetch.ts';
import { testI18nProvider } from '../../testing/renderEngine.tsx';

vi.setConfig({ testTimeout: 20_000 });

afterEach(() => {
  vi.unstubAllGlobals();
  Cookies.remove('access_token');
});

// The product's departments (a tree by parent_id) as the list answers them: sort order, not tree order.
// "Lab" hangs under a department the caller may not see (9), so it is a root.
const DEPARTMENTS = [
  { id: '1', name: 'Head office', parent_id: '0', sort: 0 },
  { id: '2', name: 'Research', parent_id: '1', sort: 1 },
  { id: '3', name: 'Backend', parent_id: '2', sort: 2 },
  { id: '4', name: 'Frontend', parent_id: '2', sort: 3 },
  { id: '5', name: 'Sales', parent_id: '1', sort: 4 },
  { id: '6', name: 'Lab', parent_id: '9', sort: 5 },
];

const departmentId = findDescriptor('staff')!.fields.find((f) => f.name === 'department_id')!;

/** The departments' definition as EngineResource registers it (its `options.tree`: a parent_id field). */
function RegisterDepartments() {
  const { register } = useResourceDefinitionContext();
  useEffect(() => {
    register({ name: 'departments', options: { tree: treeOptionsOf(findDescriptor('departments')!) } });
  }, [register]);
  return null;
}

function Watch({ onValue }: { onValue: (value: unknown) => void }) {
  onValue(useWatch({ name: 'department_id' }));
  return null;
}

async function renderPicker(
  { locale = 'en', isFilter = false } = {} as { locale?: Locale; isFilter?: boolean },
) {
  Cookies.set('access_token', 'test-token');
  const calls = fakeFetch((call) => {
    if (call.path.endsWith('/v1/user/departments')) return { body: listEnvelope(DEPARTMENTS) };
    return { status: 404, body: { code: 404, message: 'not here' } };
  });
  const values: unknown[] = [];
  render(
    <AdminContext dataProvider={createDataProvider()} i18nProvider={await testI18nProvider(locale)}>
      <RegisterDepartments />
      <Form record={{}}>
        {renderInput(departmentId, { resource: 'staff', isFilter })}
        <Watch onValue={(value) => values.push(value)} />
      </Form>
    </AdminContext>,
  );
  return { values, calls };
}

/** The expected texts, from the real catalogues. */
async function words(locale: Locale) {
  const { translate } = await testI18nProvider(locale);
  return {
    department: translate('resources.staff.fields.department_id'),
    search: translate('engine.tree_picker.search'),
    noMatch: translate('engine.tree_picker.no_match'),
    clear: translate('engine.tree_picker.clear'),
  };
}

const items = () => screen.getAllByRole('treeitem').map((item) => item.textContent);

describe('a reference to a tree resource is picked from a tree (staff -> departments)', () => {
  it.each(['en', 'zh-CN'] as const)(
    'opens by keyboard, moves with the arrows and chooses with Enter (%s)',
    async (locale) => {
      const user = userEvent.setup();
      const { values, calls } = await renderPicker({ locale });
      const t = await words(locale);
      const field = await screen.findByRole('combobox', { name: t.department, expanded: false });
      await waitFor(() => expect(field.getAttribute('aria-haspopup')).toBe('tree'));
      field.focus();
      await user.keyboard('{Enter}');
      const tree = await screen.findByRole('tree', { name: t.department });
      await waitFor(() => expect(items()).toEqual(['Head office', 'Lab']));
      // Only the caller's list is asked for (its data scope), the largest page in the list's order.
      const list = calls.find((call) => call.path.endsWith('/v1/user/departments'))!;
      expect(list.method).toBe('GET');
      expect(screen.getByRole('searchbox', { name: t.search })).toBeTruthy();
      const head = within(tree).getByRole('treeitem', { name: 'Head office' });
      expect(document.activeElement).toBe(head);
      expect(head.getAttribute('aria-expanded')).toBe('false');
      await user.keyboard('{ArrowRight}');
      expect(items()).toEqual(['Head office', 'Research', 'Sales', 'Lab']);
      expect(head.getAttribute('aria-expanded')).toBe('true');
      await user.keyboard('{ArrowDown}{ArrowRight}{ArrowRight}');
      expect(items()).toEqual(['Head office', 'Research', 'Backend', 'Frontend', 'Sales', 'Lab']);
      expect(document.activeElement?.textContent).toBe('Backend');
      expect(document.activeElement?.getAttribute('aria-level')).toBe('3');
      await user.keyboard('{ArrowDown}{Enter}');
      await waitFor(() => expect(screen.queryByRole('tree')).toBeNull());
      expect(values.at(-1)).toBe('4');
      expect((field as HTMLInputElement).value).toBe('Frontend');
      // Open again: the chosen record's branch is open and it has the focus.
      await user.click(field);
      await screen.findByRole('tree');
      await waitFor(() => expect(document.activeElement?.textContent).toBe('Frontend'));
      expect(document.activeElement?.getAttribute('aria-selected')).toBe('true');
      await user.keyboard('{ArrowLeft}');
      expect(document.activeElement?.textContent).toBe('Research');
      await user.keyboard('{ArrowLeft}');
      expect(items()).toEqual(['Head office', 'Research', 'Sales', 'Lab']);
      await user.keyboard('{Home}');
      expect(document.activeElement?.textContent).toBe('Head office');
      await user.keyboard('{End}');
      expect(document.activeElement?.textContent).toBe('Lab');
      await user.keyboard('{Escape}');
      await waitFor(() => expect(screen.queryByRole('tree')).toBeNull());
      expect(values.at(-1)).toBe('4');
    },
  );

  it('jumps by type-ahead to the next visible record starting with the letter', async () => {
    const user = userEvent.setup();
    const { values } = await renderPicker();
    await waitFor(() => expect(screen.getByRole('combobox').getAttribute('aria-haspopup')).toBe('tree'));
    await user.click(screen.getByRole('combobox'));
    await screen.findByRole('tree');
    await waitFor(() => expect(items()).toContain('Head office'));
    await user.keyboard('{ArrowRight}');
    await user.keyboard('s');
    expect(document.activeElement?.textContent).toBe('Sales');
    // A key that is not a letter starts a new prefix (several letters: tree.test.ts).
    await user.keyboard('{Home}r');
    expect(document.activeElement?.textContent).toBe('Research');
    await user.keyboard('{Enter}');
    await waitFor(() => expect(values.at(-1)).toBe('2'));
  });

  it('searches keeping the ancestors of what it finds, says when nothing matches, and clears a filter', async () => {
    const user = userEvent.setup();
    const { values } = await renderPicker({ locale: 'zh-CN', isFilter: true });
    const t = await words('zh-CN');
    await waitFor(() => expect(screen.getByRole('combobox').getAttribute('aria-haspopup')).toBe('tree'));
    await user.click(screen.getByRole('combobox'));
    await screen.findByRole('tree');
    await waitFor(() => expect(items()).toContain('Head office'));
    const search = screen.getByRole('searchbox', { name: t.search });
    await user.click(search);
    await user.keyboard('FRONT');
    expect(items()).toEqual(['Head office', 'Research', 'Frontend']);
    expect(screen.getByRole('treeitem', { name: 'Research' }).getAttribute('aria-level')).toBe('2');
    await user.keyboard('{ArrowDown}');
    expect(document.activeElement?.textContent).toBe('Head office');
    await user.keyboard('{End}{Enter}');
    await waitFor(() => expect(values.at(-1)).toBe('4'));
    await user.click(screen.getByRole('combobox'));
    await user.type(await screen.findByRole('searchbox'), 'nothing like it');
    expect(screen.queryByRole('tree')).toBeNull();
    expect(screen.getByRole('status').textContent).toBe(t.noMatch);
    await user.click(screen.getByRole('button', { name: t.clear }));
    await waitFor(() => expect(values.at(-1) ?? null).toBeNull());
  });
});
