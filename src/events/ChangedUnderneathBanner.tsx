import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { cachedProfile } from '../providers/profile.ts';
import type { RecordEvent } from './eventStream.ts';
import { useLiveEvents } from './useLiveEvents.ts';

/**
 * On an edit page: a warning when someone else changes (or deletes, or imports over) the record being edited, with a Reload
 * button that drops the local draft and loads the current version (the form resets to it). Changes made by
 * the signed-in user themselves are not reported.
 *
 * @example
 * <ChangedUnderneathBanner resource="staff" id={id} onReload={() => draftStore.clear(draftKey)} />
 */
export function ChangedUnderneathBanner({
  resource,
  id,
  onReload,
}: {
  resource: string;
  id: string | number | undefined;
  onReload?: () => void;
}) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const [state, setState] = useState<'fresh' | 'changed' | 'deleted'>('fresh');
  useLiveEvents((event) => {
    if (event.type !== 'record' || id === undefined) return;
    const change = event.data as RecordEvent;
    const isThisRecord =
      change.id === null ? change.ids === null || change.ids.includes(String(id)) : change.id === String(id);
    if (change.resource !== resource || !isThisRecord) return;
    if (change.actor_id === cachedProfile(queryClient)?.id) return;
    setState(change.action === 'delete' ? 'deleted' : 'changed');
  });
  if (state === 'fresh') return null;
  const reload = async () => {
    onReload?.();
    await queryClient.invalidateQueries({ queryKey: [resource, 'getOne'] });
    setState('fresh');
  };
  return (
    <Alert
      severity="warning"
      role="alert"
      sx={{ m: 2, mb: 0 }}
      action={
        state === 'changed' ? (
          <Button color="inherit" size="small" onClick={() => void reload()}>
            {t('system.events.reload')}
          </Button>
        ) : undefined
      }
    >
      {t(state === 'changed' ? 'system.events.changed' : 'system.events.deleted')}
    </Alert>
  );
}
