import Alert from '@mui/material/Alert';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useMemo } from 'react';
import { SaveButton, SimpleForm, Toolbar, useNotify, useTranslate } from 'react-admin';
import { PERMISSION, actionPermission } from '../../../../schemas/permissions.ts';
import { DELIVERY_KEYS, settingsSchemas, type SettingsGroup } from '../../../../schemas/settings.ts';
import { LoadingState } from '../../../components/LoadingState.tsx';
import { httpClient } from '../../../providers/httpClient.ts';
import { isHttpError } from '../../../providers/httpError.ts';
import { siteKey } from '../../../providers/siteConfig.ts';
import { useCan } from '../../../providers/useCan.ts';
import { GROUP_FIELDS } from './groupFields.ts';
import { SettingInput } from './SettingInput.tsx';
import { settingsPayload, settingsResolver } from './settingsResolver.ts';

export const settingsKey = (group: SettingsGroup) => ['settings', group] as const;

/**
 * One settings group as a form: loaded from `GET v1/settings/<group>`, checked with the group's zod schema,
 * saved with `POST` ("Save successful"); server field errors land under their inputs. Saving refreshes the
 * site config (`GET /api/v1`), so the site name and languages change at once, without a restart. Without
 * `system.settings.general.update` the form is read-only (no Save button; the server refuses the POST).
 * The delivery keys (DELIVERY_KEYS: SMTP, sender, SMS gateway) are read-only, with a note saying why, unless
 * the caller is an administrator or holds `system.settings.delivery`; the rest of the group still saves,
 * sending those keys as they were.
 */
export function SettingsGroupForm({ group }: { group: SettingsGroup }) {
  const translate = useTranslate();
  const notify = useNotify();
  const queryClient = useQueryClient();
  const fields = GROUP_FIELDS[group];
  const canUpdate = useCan(actionPermission(PERMISSION.settingsGeneral, 'update'));
  const canDelivery = useCan(PERMISSION.settingsDelivery);
  const locked = useMemo(
    () => new Set(canUpdate && !canDelivery ? (DELIVERY_KEYS[group] ?? []) : []),
    [canUpdate, canDelivery, group],
  );
  const { data } = useQuery({
    queryKey: settingsKey(group),
    queryFn: () => httpClient<Record<string, unknown>>(`v1/settings/${group}`),
  });
  const resolver = useMemo(
    () => settingsResolver({ schema: settingsSchemas[group], fields, translate }),
    [group, fields, translate],
  );
  if (!data) return <LoadingState />;

  const onSubmit = async (values: Record<string, unknown>) => {
    // Locked keys go back as they were loaded (a blank secret keeps its value), whatever the form holds.
    const kept = Object.fromEntries([...locked].map((key) => [key, record[key]]));
    try {
      const saved = await httpClient<Record<string, unknown>>(`v1/settings/${group}`, {
        method: 'POST',
        body: settingsPayload({ ...values, ...kept }, fields),
      });
      queryClient.setQueryData(settingsKey(group), saved);
      await queryClient.invalidateQueries({ queryKey: siteKey });
      notify('settings.general.saved', { type: 'success' });
      return undefined;
    } catch (error) {
      if (isHttpError(error) && Object.keys(error.errors).length) {
        return Object.fromEntries(Object.entries(error.errors).map(([key, messages]) => [key, messages[0]]));
      }
      notify(error instanceof Error ? error.message : 'ra.notification.http_error', { type: 'error' });
      return undefined;
    }
  };

  // Secrets never come back; the form starts them blank and says whether one is stored.
  const record = {
    ...data,
    ...Object.fromEntries(fields.filter((f) => f.kind === 'secret').map((f) => [f.key, ''])),
    ...Object.fromEntries(
      fields
        .filter((f) => f.kind === 'oidc' && Array.isArray(data[f.key]))
        .map((f) => [f.key, (data[f.key] as object[]).map((entry) => ({ ...entry, client_secret: '' }))]),
    ),
  };
  return (
    <SimpleForm
      key={JSON.stringify(data)}
      record={record}
      resolver={resolver}
      onSubmit={onSubmit}
      disabled={!canUpdate}
      toolbar={
        canUpdate ? (
          <Toolbar>
            <SaveButton />
          </Toolbar>
        ) : (
          false
        )
      }
    >
      {locked.size ? (
        <Alert severity="info" sx={{ mb: 2, width: '100%' }}>
          {translate('settings.general.delivery_locked')}
        </Alert>
      ) : null}
      {fields.map((field) => (
        <SettingInput
          key={field.key}
          field={field}
          isSet={data[`${field.key}_set`] === true}
          hint={sourceHint(field.key, data, translate)}
          disabled={locked.has(field.key)}
        />
      ))}
    </SimpleForm>
  );
}

/** The `message` group answers where its SMTP URL in use comes from (`smtp_url_source`): said under the input. */
function sourceHint(
  key: string,
  data: Record<string, unknown>,
  translate: (key: string) => string,
): string | undefined {
  const source = data[`${key}_source`];
  return key === 'smtp_url' && typeof source === 'string'
    ? translate(`settings.general.smtp_source.${source}`)
    : undefined;
}
