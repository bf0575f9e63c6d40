import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { AdminContext, Form, RecordContextProvider } from 'react-admin';
import { useWatch } from 'react-hook-form';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Locale } from '../../../locales/languages.ts';
import { LocaleDateField } from './LocaleDateField.tsx';
import { renderInput } from './inputTable.tsx';
import { describeResource } from '../data/descriptor.ts';
import { engineFields } from '../data/registry.ts';
import type { EngineField } from '../data/registry.ts';
import { contacts } from '../testing/contacts.ts';
import { fakeFetch, listEnvelope } from '../testing/fakeFetch.ts';
import { renderEngine, testI18nProvider } from '../testing/renderEngine.tsx';

vi.setConfig({ testTimeout: 20_000 });

afterEach(() => {
  vi.unstubAllGlobals();
  sessionStorage.clear();
});

const birthday = engineFields(describeResource(contacts)).find((f) => f.name === 'birthday')!;
const seen: EngineField = { ...birthday, name: 'seen_at', kind: 'datetime' };

function Watch({ name, onValue }: { name: string; onValue: (value: unknown) => void }) {
  onValue(useWatch({ name }));
  return null;
}

async function renderField(
  field: EngineField,
  locale: Locale,
  record: Record<string, unknown> = {},
  isFilter = false,
) {
  const values: unknown[] = [];
  render(
    <AdminContext i18nProvider={await testI18nProvider(locale)}>
      <Form record={record}>
        {renderInput(field, { resource: 'contacts', isFilter })}
        <Watch name={field.name} onValue={(value) => values.push(value)} />
      </Form>
    </AdminContext>,
  );
  return values;
}

describe('date inputs follow the interface language, not the browser', () => {
  it('zh-CN shows and reads 2025/07/04', async () => {
    const values = await renderField(birthday, 'zh-CN', { birthday: '2025-07-04' });
    const box = await screen.findByRole('textbox', { name: /^birthday/i });
    expect(box).toHaveProperty('value', '2025/07/04');
    expect(box.getAttribute('placeholder')).toBe('年/月/日');
    await userEvent.clear(box);
    await userEvent.type(box, '2026/1/31');
    await waitFor(() => expect(values.at(-1)).toBe('2026-01-31'));
    expect(box).toHaveProperty('value', '2026/1/31');
  });

  it('en shows and reads 07/04/2025', async () => {
    const values = await renderField(birthday, 'en', { birthday: '2025-07-04' });
    const box = await screen.findByRole('textbox', { name: /^birthday/i });
    expect(box).toHaveProperty('value', '07/04/2025');
    // The format's letters, never a sample date that looks like a value (issue 35 defect 6).
    expect(box.getAttribute('placeholder')).toBe('mm/dd/yyyy');
    await userEvent.clear(box);
    await userEvent.type(box, '01/31/2026');
    await waitFor(() => expect(values.at(-1)).toBe('2026-01-31'));
    await userEvent.clear(box);
    await waitFor(() => expect(values.at(-1)).toBeNull());
  });

  it('says which format it wants when the text is no date, and keeps the text', async () => {
    await renderField(birthday, 'zh-CN');
    const box = await screen.findByRole('textbox', { name: /^birthday/i });
    await userEvent.type(box, '07/04/2025');
    expect(await screen.findByText('请按 2025/07/04 的格式输入')).toBeTruthy();
    expect(box).toHaveProperty('value', '07/04/2025');
  });

  it('a date and time is local time on screen and an ISO instant in the form', async () => {
    const at = new Date(2025, 6, 4, 9, 5);
    const values = await renderField(seen, 'zh-CN', { seen_at: at.toISOString() });
    const box = await screen.findByRole('textbox', { name: /^seen at/i });
    expect(box).toHaveProperty('value', '2025/07/04 09:05');
    await userEvent.clear(box);
    await userEvent.type(box, '2025/07/05 18:30');
    await waitFor(() => expect(values.at(-1)).toBe(new Date(2025, 6, 5, 18, 30).toISOString()));
  });

  it('a date range filter reads both ends in the language and ignores half-typed text', async () => {
    const ranged: EngineField = { ...birthday, meta: { ...birthday.meta, search: ['between'] } };
    const values = await renderField(ranged, 'en', {}, true);
    const from = await screen.findByRole('textbox', { name: 'birthday from' });
    await userEvent.type(from, '07/04/202');
    expect(values.filter((v) => v !== undefined && v !== null)).toEqual([]);
    await userEvent.type(from, '5');
    await userEvent.type(screen.getByRole('textbox', { name: 'birthday to' }), '07/31/2025');
    await waitFor(() => expect(values.at(-1)).toEqual(['2025-07-04', '2025-07-31']));
  });

  it('an edit form shows the stored date in the language and saves the typed one as YYYY-MM-DD', async () => {
    const alice = {
      ...{ id: '1', name: 'Alice', email: 'a@example.com', state: true, role_ids: [] },
      ...{ birthday: '2025-07-04', is_vip: 0 },
    };
    const calls = fakeFetch((call) => {
      if (call.method === 'GET' && call.path === '/api/v1/test/contacts/1')
        return { body: { code: 200, data: alice } };
      if (call.method === 'PATCH')
        return { body: { code: 200, data: { ...alice, ...(call.body as object) } } };
      return { body: listEnvelope([]) };
    });
    await renderEngine({ path: '/settings/contacts/1', locale: 'zh-CN' });
    const box = await screen.findByDisplayValue('2025/07/04');
    await userEvent.clear(box);
    await userEvent.type(box, '2025/08/01');
    await userEvent.click(screen.getByRole('button', { name: '保存' }));
    await waitFor(() =>
      expect(calls.find((c) => c.method === 'PATCH')?.body).toEqual({ birthday: '2025-08-01' }),
    );
  });

  it('lists and show pages print dates and times in the language, with the time', async () => {
    const at = new Date(2025, 6, 4, 9, 5, 7).toISOString();
    for (const [locale, expected] of [
      ['zh-CN', ['2025/07/04', '2025/07/04 09:05:07']],
      ['en', ['07/04/2025', '07/04/2025, 09:05:07']],
    ] as const) {
      const view = render(
        <AdminContext i18nProvider={await testI18nProvider(locale)}>
          <RecordContextProvider value={{ id: 1, day: '2025-07-04T12:00:00', at }}>
            <LocaleDateField source="day" />
            <LocaleDateField source="at" showTime />
          </RecordContextProvider>
        </AdminContext>,
      );
      expect(await screen.findByText(expected[0])).toBeTruthy();
      expect(screen.getByText(expected[1])).toBeTruthy();
      view.unmount();
    }
  });
});
