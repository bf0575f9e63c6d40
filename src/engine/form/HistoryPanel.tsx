import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Card from '@mui/material/Card';
import CardContent from '@mui/material/CardContent';
import Typography from '@mui/material/Typography';
import { useQueries, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { Confirm, useDataProvider, useLocale, useNotify, useTranslate } from 'react-admin';
import type { Identifier, RaRecord } from 'react-admin';
import type { Resource } from '../../../resources/define.ts';
import type { HistoryEntry, HistoryParams } from '../data/dataProvider.ts';
import { findDescriptor, representationField } from '../data/registry.ts';
import { useAbilities } from '../data/useAbilities.ts';
import { schemaFields } from './schemaFields.ts';

const PAGE = 10;

interface HistoryProvider {
  getMany(name: string, params: { ids: Identifier[] }): Promise<{ data: RaRecord[] }>;
  getHistory(name: string, params: HistoryParams): Promise<{ data: HistoryEntry[]; total: number }>;
  restoreVersion(name: string, params: { id: Identifier; version: number }): Promise<unknown>;
}

/**
 * A record's history under its edit or show page (`GET <path>/<id>/history`): each version newest first with
 * who, when and the fields it changed (labels from the catalogue, old -> new; a reference by its record's
 * representation, as the activity log names it, read with the caller's own access: an id it may not read, or
 * of a record gone for good, stays an id), and, for callers who may
 * update, "Restore this version" behind a confirm. Older versions load on demand.
 *
 * @example
 * <HistoryPanel resource={resource} id={id} />
 */
export function HistoryPanel({ resource, id }: { resource: Resource; id: Identifier | undefined }) {
  const translate = useTranslate();
  const locale = useLocale();
  const notify = useNotify();
  const queryClient = useQueryClient();
  const provider = useDataProvider() as unknown as HistoryProvider;
  const can = useAbilities(resource);
  const [perPage, setPerPage] = useState(PAGE);
  const [asked, setAsked] = useState<number | null>(null);
  const key = [resource.name, 'history', String(id), perPage];
  const { data } = useQuery({
    queryKey: key,
    queryFn: () => provider.getHistory(resource.name, { id: id!, perPage }),
    enabled: id !== undefined,
  });
  const labels = new Map(
    schemaFields(resource).map((f) => [
      f.name,
      translate(`resources.${resource.name}.fields.${f.name}`, { _: f.name }),
    ]),
  );
  // References by label: the ids each reference field's changes mention, read from their resource.
  const relations = new Map(
    schemaFields(resource)
      .filter((f) => f.meta.relation)
      .map((f) => [f.name, f.meta.relation!.resource] as const),
  );
  const mentioned = new Map<string, Set<string>>();
  for (const entry of data?.data ?? [])
    for (const [field, pair] of Object.entries(entry.changes ?? {})) {
      const target = relations.get(field);
      if (!target || !findDescriptor(target)) continue;
      const ids = mentioned.get(target) ?? new Set<string>();
      for (const side of pair)
        for (const v of Array.isArray(side) ? side : [side]) if (v != null) ids.add(String(v));
      mentioned.set(target, ids);
    }
  const targets = [...mentioned].filter(([, ids]) => ids.size > 0);
  const names = useQueries({
    queries: targets.map(([target, ids]) => ({
      queryKey: [target, 'getMany', { ids: [...ids].sort() }, 'history-names'],
      queryFn: async () => {
        const rep = representationField(findDescriptor(target)!);
        const { data: records } = await provider.getMany(target, { ids: [...ids] });
        return new Map(records.map((r) => [String(r.id), String(r[rep] ?? r.id)]));
      },
      retry: false,
    })),
  });
  const labelOf = (field: string, value: unknown): string | undefined => {
    const target = relations.get(field);
    const index = targets.findIndex(([name]) => name === target);
    return index < 0 ? undefined : names[index]?.data?.get(String(value));
  };
  const showField = (field: string, value: unknown): string => {
    if (!relations.has(field) || value === null || value === undefined) return show(value);
    const values = Array.isArray(value) ? value : [value];
    if (!values.length) return show(value);
    return values.map((v) => labelOf(field, v) ?? String(v)).join(', ');
  };
  const show = (value: unknown): string => {
    if (value === null || value === undefined || value === '') return translate('engine.versions.empty');
    if (typeof value === 'boolean') return translate(value ? 'ra.boolean.true' : 'ra.boolean.false');
    if (Array.isArray(value))
      return value.map((v) => (typeof v === 'object' ? JSON.stringify(v) : String(v))).join(', ');
    return typeof value === 'object' ? JSON.stringify(value) : String(value);
  };
  const restore = async () => {
    if (asked === null || id === undefined) return;
    const version = asked;
    setAsked(null);
    try {
      await provider.restoreVersion(resource.name, { id, version });
      notify('engine.versions.restored', { type: 'success', messageArgs: { version } });
    } catch (error) {
      notify(error instanceof Error ? error.message : 'ra.notification.http_error', { type: 'error' });
    }
    await queryClient.invalidateQueries({ queryKey: [resource.name] });
  };
  if (id === undefined) return null;
  const entries = data?.data ?? [];
  return (
    <Card variant="outlined" sx={{ mt: 2 }} component="section" aria-labelledby="history-title">
      <CardContent>
        <Typography id="history-title" variant="h6" component="h2" gutterBottom>
          {translate('engine.versions.history')}
        </Typography>
        {data && entries.length === 0 ? (
          <Typography color="text.secondary">{translate('engine.versions.history_empty')}</Typography>
        ) : null}
        <Box component="ol" sx={{ listStyle: 'none', p: 0, m: 0 }}>
          {entries.map((entry, index) => (
            <Box
              component="li"
              key={`${entry.version ?? 'x'}-${index}`}
              data-version={entry.version ?? undefined}
              sx={{ py: 1, borderTop: index ? 1 : 0, borderColor: 'divider' }}
            >
              <Box sx={{ display: 'flex', gap: 1, alignItems: 'center', flexWrap: 'wrap' }}>
                <Typography component="span" fontWeight="bold">
                  {entry.version === null
                    ? translate(`engine.versions.action_${entry.action}`)
                    : `${translate('engine.versions.version', { version: entry.version })} · ${translate(`engine.versions.action_${entry.action}`)}`}
                </Typography>
                <Typography component="span" variant="body2" color="text.secondary">
                  {translate('engine.versions.by', {
                    name: entry.actor
                      ? entry.actor.name || entry.actor.username
                      : translate('engine.versions.system'),
                    at: new Date(entry.at).toLocaleString(locale),
                  })}
                </Typography>
                {can.update && entry.version !== null && index > 0 ? (
                  <Button size="small" onClick={() => setAsked(entry.version)}>
                    {translate('engine.versions.restore')}
                  </Button>
                ) : null}
              </Box>
              <Box component="ul" sx={{ m: 0, pl: 2 }}>
                {Object.entries(entry.changes ?? {}).map(([field, [before, after]]) => (
                  <Typography key={field} component="li" variant="body2" sx={{ wordBreak: 'break-word' }}>
                    <strong>{labels.get(field) ?? field}</strong>
                    {': '}
                    {entry.action === 'create'
                      ? showField(field, after)
                      : `${showField(field, before)} → ${showField(field, after)}`}
                  </Typography>
                ))}
              </Box>
            </Box>
          ))}
        </Box>
        {data && data.total > entries.length ? (
          <Button size="small" onClick={() => setPerPage((n) => n + PAGE)}>
            {translate('engine.versions.more')}
          </Button>
        ) : null}
      </CardContent>
      <Confirm
        isOpen={asked !== null}
        title={translate('engine.versions.restore_confirm_title', { version: asked })}
        content={translate('engine.versions.restore_confirm', { version: asked })}
        onConfirm={() => void restore()}
        onClose={() => setAsked(null)}
      />
    </Card>
  );
}
