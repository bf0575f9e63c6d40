import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { AdminContext, Form } from 'react-admin';
import { useWatch } from 'react-hook-form';
import { describe, expect, it } from 'vitest';
import { renderInput } from '../fields/inputTable.tsx';
import { describeResource } from '../data/descriptor.ts';
import { engineFields } from '../data/registry.ts';
import type { EngineField } from '../data/registry.ts';
import { contacts } from '../testing/contacts.ts';
import { testI18nProvider } from '../testing/renderEngine.tsx';

function Watch({ onValue }: { onValue: (value: unknown) => void }) {
  onValue(useWatch({ name: 'age' }));
  return null;
}

describe('BetweenInput', () => {
  it('is the filter of a field searched with `between`: two boxes whose value is [from, to]', async () => {
    const declared = engineFields(describeResource(contacts)).find((f) => f.name === 'age')!;
    const age: EngineField = { ...declared, meta: { ...declared.meta, search: ['between', '>='] } };
    const values: unknown[] = [];
    render(
      <AdminContext i18nProvider={await testI18nProvider('zh-CN')}>
        <Form>
          {renderInput(age, { resource: 'contacts', isFilter: true })}
          <Watch onValue={(value) => values.push(value)} />
        </Form>
      </AdminContext>,
    );
    await userEvent.type(await screen.findByLabelText('age（起）'), '18');
    await userEvent.type(screen.getByLabelText('age（止）'), '30');
    await waitFor(() => expect(values.at(-1)).toEqual(['18', '30']));
    await userEvent.clear(screen.getByLabelText('age（起）'));
    await userEvent.clear(screen.getByLabelText('age（止）'));
    await waitFor(() => expect(values.at(-1)).toBeNull());
  });
});
