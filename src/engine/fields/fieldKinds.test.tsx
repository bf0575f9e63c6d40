import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { AdminContext, Form, RecordContextProvider } from 'react-admin';
import { useWatch } from 'react-hook-form';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { AssetField } from './AssetField.tsx';
import { AssetInput } from './AssetInput.tsx';
import { MarkdownInput } from './MarkdownInput.tsx';
import { MoneyField } from './MoneyField.tsx';
import { MoneyInput } from './MoneyInput.tsx';
import { fakeFetch, type FakeCall } from '../testing/fakeFetch.ts';
import { testI18nProvider } from '../testing/renderEngine.tsx';

/**
 * The screens of the field kinds of issue 15 (money, image/file, markdown), by role and text: what a user
 * sees and types, and what the form holds. The API is a fake server answering the contract's envelopes.
 */
const PNG = Uint8Array.from(
  atob('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg=='),
  (c) => c.charCodeAt(0),
);

function Watch({ name, onValue }: { name: string; onValue: (value: unknown) => void }) {
  onValue(useWatch({ name }));
  return null;
}

/** GET /api/v1 answers the site's currency; an asset download answers a PNG. */
function api(): FakeCall[] {
  return fakeFetch((call) => {
    if (call.path === '/api/v1')
      return { body: { code: 200, data: { status: 'ok', config: { currency: 'USD', decimals: 2 } } } };
    if (call.path.endsWith('/download'))
      return new Response(new Blob([PNG], { type: 'image/png' }), {
        headers: { 'content-type': 'image/png' },
      });
    return { status: 404, body: { code: 404, message: 'Not found', data: null } };
  });
}

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('money', () => {
  it('shows minor units in the site currency', async () => {
    api();
    render(
      <AdminContext i18nProvider={await testI18nProvider('en')}>
        <RecordContextProvider value={{ id: 1, price: 2499 }}>
          <MoneyField source="price" />
        </RecordContextProvider>
      </AdminContext>,
    );
    expect(await screen.findByText('$24.99')).toBeTruthy();
  });

  it('is typed in major units and held in minor units', async () => {
    api();
    const values: unknown[] = [];
    render(
      <AdminContext i18nProvider={await testI18nProvider('en')}>
        <Form defaultValues={{ price: 1000 }}>
          <MoneyInput source="price" label="Price" />
          <Watch name="price" onValue={(value) => values.push(value)} />
        </Form>
      </AdminContext>,
    );
    const input = await screen.findByRole<HTMLInputElement>('spinbutton', { name: 'Price' });
    expect(input.value).toBe('10');
    expect(await screen.findByText('USD')).toBeTruthy();
    await userEvent.clear(input);
    await userEvent.type(input, '24.99');
    await waitFor(() => expect(values.at(-1)).toBe(2499));
  });
});

describe('image and file', () => {
  it('previews the held image through its field, offers Replace, Remove and Download', async () => {
    const calls = api();
    const values: unknown[] = [];
    URL.createObjectURL = vi.fn(() => 'blob:photo');
    URL.revokeObjectURL = vi.fn();
    render(
      <AdminContext i18nProvider={await testI18nProvider('en')}>
        <Form defaultValues={{ photo_id: '7' }}>
          <AssetInput
            source="photo_id"
            label="resources.assets.fields.preview"
            kind="image"
            field="products.photo_id"
          />
          <Watch name="photo_id" onValue={(value) => values.push(value)} />
        </Form>
      </AdminContext>,
    );
    expect((await screen.findByRole('img', { name: 'Preview' })).getAttribute('src')).toBe('blob:photo');
    const download = calls.find((c) => c.path === '/api/v1/resources/assets/7/download');
    expect(download?.query.get('field')).toBe('products.photo_id');
    // The label is the field's translation key, translated.
    expect(screen.getByText('Preview', { selector: 'label' })).toBeTruthy();
    expect(screen.getByText('Replace')).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Download' })).toBeTruthy();
    await userEvent.click(screen.getByRole('button', { name: 'Remove' }));
    await waitFor(() => expect(values.at(-1)).toBeNull());
    expect(screen.queryByRole('img', { name: 'Preview' })).toBeNull();
    expect(screen.getByText('Upload')).toBeTruthy();
  });

  it('a file cell is a download button, with no preview', async () => {
    const calls = api();
    render(
      <AdminContext i18nProvider={await testI18nProvider('en')}>
        <RecordContextProvider value={{ id: 1, manual_id: '9' }}>
          <AssetField source="manual_id" kind="file" field="products.manual_id" isListCell />
        </RecordContextProvider>
      </AdminContext>,
    );
    expect(await screen.findByRole('button', { name: 'Download' })).toBeTruthy();
    expect(screen.queryByRole('img')).toBeNull();
    expect(calls.some((c) => c.path.endsWith('/download'))).toBe(false);
  });
});

describe('markdown', () => {
  it('previews the safe subset as elements, never as HTML, and goes back to editing', async () => {
    render(
      <AdminContext i18nProvider={await testI18nProvider('en')}>
        <Form defaultValues={{ body: '' }}>
          <MarkdownInput source="body" label="Body" />
        </Form>
      </AdminContext>,
    );
    const box = await screen.findByRole('textbox', { name: 'Body' });
    await userEvent.type(box, '# Title{enter}{enter}- **bold** item{enter}- <b>raw</b>');
    await userEvent.click(screen.getByRole('button', { name: 'Preview' }));
    const preview = screen.getByRole('region', { name: 'Preview' });
    expect(within(preview).getByRole('heading', { name: 'Title' })).toBeTruthy();
    expect(within(preview).getAllByRole('listitem')).toHaveLength(2);
    expect(within(preview).getByText('bold').tagName).toBe('STRONG');
    expect(within(preview).getByText('<b>raw</b>')).toBeTruthy();
    await userEvent.click(screen.getByRole('button', { name: 'Edit' }));
    expect(screen.getByRole<HTMLTextAreaElement>('textbox', { name: 'Body' }).value).toBe(
      '# Title\n\n- **bold** item\n- <b>raw</b>',
    );
  });
});
