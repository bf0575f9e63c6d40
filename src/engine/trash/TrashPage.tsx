import { useState } from 'react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Card from '@mui/material/Card';
import CardActions from '@mui/material/CardActions';
import CardContent from '@mui/material/CardContent';
import LinearProgress from '@mui/material/LinearProgress';
import Stack from '@mui/material/Stack';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import Typography from '@mui/material/Typography';
import ArrowBackIcon from '@mui/icons-material/ArrowBack';
import DeleteForeverIcon from '@mui/icons-material/DeleteForever';
import RestoreFromTrashIcon from '@mui/icons-material/RestoreFromTrash';
import { Link } from 'react-router-dom';
import { Button, Confirm, useBasename, useLocaleState, useNotify, useTranslate } from 'react-admin';
import type { ResourceDescriptor as Resource } from '../data/descriptor.ts';
import { representationField } from '../data/registry.ts';
import { httpClient } from '../../providers/httpClient.ts';
import { TableScroll } from '../../components/TableScroll.tsx';
import { useIsPhone } from '../list/listLayout.tsx';
import { messageOf } from './trash.ts';

const PER_PAGE = 20;

interface TrashedRecord {
  id: string;
  deleted_at: string;
  [field: string]: unknown;
}

interface TrashPageAnswer {
  data: TrashedRecord[];
  meta?: { pagination?: { total?: number } };
}

/**
 * `<list path>/trash`: the resource's trashed records, newest first as the server lists them, each with its
 * name (the record's representation), when it was deleted, "Restore" (`POST <path>/trash/<id>/restore`) and
 * "Delete for good" (`DELETE <path>/trash/<id>`, behind a confirm naming the record). Loading, empty and
 * error states; a table in its own scrolling box on a desk, cards on a phone. The server decides who may (the
 * resource's delete permission, its data scope) and its refusals (a restore while a record it refers to is
 * still in the trash) are shown as they come.
 */
export function TrashPage({ resource }: { resource: Resource }) {
  const translate = useTranslate();
  const notify = useNotify();
  const basename = useBasename();
  const isPhone = useIsPhone();
  const [locale] = useLocaleState();
  const queryClient = useQueryClient();
  const [page, setPage] = useState(1);
  const [purging, setPurging] = useState<TrashedRecord | null>(null);
  const [busy, setBusy] = useState(false);
  const key = ['engine.trash', resource.name, page] as const;
  const trash = useQuery({
    queryKey: key,
    queryFn: ({ signal }) =>
      httpClient<TrashPageAnswer>(`${resource.endpoint}/trash`, { query: { page, size: PER_PAGE }, signal }),
  });
  const nameField = representationField(resource);
  const nameOf = (record: TrashedRecord) => String(record[nameField] ?? `#${record.id}`);
  const when = (at: string) =>
    new Date(at).toLocaleString(locale, { dateStyle: 'medium', timeStyle: 'short' });
  const refresh = async () => {
    await queryClient.invalidateQueries({ queryKey: ['engine.trash', resource.name] });
    // The live list shows a restored record again.
    await queryClient.invalidateQueries({ queryKey: [resource.name] });
  };
  const act = async (record: TrashedRecord, kind: 'restore' | 'purge') => {
    setBusy(true);
    try {
      const path = `${resource.endpoint}/trash/${encodeURIComponent(record.id)}`;
      if (kind === 'restore') await httpClient(`${path}/restore`, { method: 'POST' });
      else await httpClient(path, { method: 'DELETE' });
      notify(kind === 'restore' ? 'engine.trash.restored' : 'engine.trash.purged', {
        type: 'info',
        messageArgs: { name: nameOf(record) },
      });
      await refresh();
    } catch (error) {
      notify(messageOf(error, 'ra.notification.http_error'), { type: 'error' });
    } finally {
      setBusy(false);
      setPurging(null);
    }
  };

  const rows = trash.data?.data ?? [];
  const total = trash.data?.meta?.pagination?.total ?? rows.length;
  const listLabel = translate('engine.trash.list', {
    name: translate(`resources.${resource.name}.name`, { smart_count: 2, count: 2, _: resource.name }),
  });
  const buttons = (record: TrashedRecord) => (
    <>
      <Button
        label="engine.trash.restore"
        disabled={busy}
        onClick={() => void act(record, 'restore')}
        aria-label={translate('engine.trash.restore_named', { name: nameOf(record) })}
      >
        <RestoreFromTrashIcon />
      </Button>
      <Button
        label="engine.trash.purge"
        color="error"
        disabled={busy}
        onClick={() => setPurging(record)}
        aria-label={translate('engine.trash.purge_named', { name: nameOf(record) })}
      >
        <DeleteForeverIcon />
      </Button>
    </>
  );

  let body;
  if (trash.isPending) {
    body = (
      <Box aria-busy="true" sx={{ py: 4 }}>
        <LinearProgress aria-label={translate('engine.list.loading')} />
        <Typography color="text.secondary" sx={{ mt: 2, textAlign: 'center' }}>
          {translate('engine.list.loading')}
        </Typography>
      </Box>
    );
  } else if (trash.isError) {
    body = <Alert severity="error">{messageOf(trash.error, translate('ra.notification.http_error'))}</Alert>;
  } else if (rows.length === 0) {
    body = (
      <Typography variant="h6" component="p" color="text.secondary" sx={{ textAlign: 'center', py: 6 }}>
        {translate('engine.trash.empty')}
      </Typography>
    );
  } else if (isPhone) {
    body = (
      <Stack component="ul" aria-label={listLabel} spacing={1} sx={{ listStyle: 'none', p: 0, m: 0 }}>
        {rows.map((record) => (
          <Card component="li" key={record.id} variant="outlined">
            <CardContent sx={{ pb: 0 }}>
              <Typography sx={{ fontWeight: 500, overflowWrap: 'anywhere' }}>{nameOf(record)}</Typography>
              <Typography variant="body2" color="text.secondary">
                {translate('engine.trash.deleted_at')}: {when(record.deleted_at)}
              </Typography>
            </CardContent>
            <CardActions sx={{ flexWrap: 'wrap' }}>{buttons(record)}</CardActions>
          </Card>
        ))}
      </Stack>
    );
  } else {
    body = (
      <TableScroll label={listLabel}>
        <Table size="small" aria-label={listLabel}>
          <TableHead>
            <TableRow>
              <TableCell>{translate('engine.trash.record')}</TableCell>
              <TableCell>{translate('engine.trash.deleted_at')}</TableCell>
              <TableCell>{translate('engine.table.actions')}</TableCell>
            </TableRow>
          </TableHead>
          <TableBody>
            {rows.map((record) => (
              <TableRow key={record.id}>
                <TableCell>{nameOf(record)}</TableCell>
                <TableCell>{when(record.deleted_at)}</TableCell>
                <TableCell sx={{ whiteSpace: 'nowrap' }}>{buttons(record)}</TableCell>
              </TableRow>
            ))}
          </TableBody>
        </Table>
      </TableScroll>
    );
  }

  const pages = Math.max(1, Math.ceil(total / PER_PAGE));
  return (
    <Box sx={{ p: { xs: 1, sm: 2 }, minWidth: 0 }}>
      <Stack direction="row" sx={{ mb: 1, flexWrap: 'wrap', gap: 1, alignItems: 'center' }}>
        <Button component={Link} label="engine.trash.back" to={`${basename}/${resource.name}`}>
          <ArrowBackIcon />
        </Button>
        <Typography variant="body2" color="text.secondary" sx={{ flexGrow: 1 }}>
          {translate('engine.trash.hint')}
        </Typography>
      </Stack>
      {body}
      {pages > 1 ? (
        <Stack direction="row" sx={{ mt: 1, gap: 1, alignItems: 'center', justifyContent: 'flex-end' }}>
          <Button label="ra.navigation.previous" disabled={page <= 1} onClick={() => setPage(page - 1)} />
          <Typography variant="body2">{translate('ra.navigation.current_page', { page })}</Typography>
          <Button label="ra.navigation.next" disabled={page >= pages} onClick={() => setPage(page + 1)} />
        </Stack>
      ) : null}
      <Confirm
        isOpen={purging !== null}
        loading={busy}
        title="engine.trash.purge_confirm"
        titleTranslateOptions={{ name: purging ? nameOf(purging) : '' }}
        content="engine.trash.purge_content"
        confirm="engine.trash.purge"
        onConfirm={() => void (purging && act(purging, 'purge'))}
        onClose={() => setPurging(null)}
      />
    </Box>
  );
}
