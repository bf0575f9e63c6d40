import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Switch from '@mui/material/Switch';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import Typography from '@mui/material/Typography';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { PERMISSION, actionPermission } from '../../../../schemas/permissions.ts';
import { httpClient } from '../../../providers/httpClient.ts';
import { useCan } from '../../../providers/useCan.ts';
import { MENUS_KEY } from '../../../providers/useSettingsMenu.ts';
import { KeyRows } from '../../../components/KeyRows.tsx';

/** A module as `GET v1/system/modules` lists it. */
export interface WireModule {
  name: string;
  title: string;
  description: string;
  core: boolean;
  enabled: boolean;
}

const MODULES_KEY = ['system', 'modules'] as const;

/** Modules page: each module with its description and state; switch one off (after confirming) or on. */
export function ModulesPage() {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const canUpdate = useCan(actionPermission(PERMISSION.settingsModules, 'update'));
  const [confirming, setConfirming] = useState<WireModule | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const list = useQuery({
    queryKey: MODULES_KEY,
    queryFn: () => httpClient<WireModule[]>('v1/system/modules'),
  });
  const change = useMutation({
    mutationFn: ({ name, enable }: { name: string; enable: boolean }) =>
      httpClient<WireModule>(`v1/system/modules/${name}/${enable ? 'enable' : 'disable'}`, {
        method: 'POST',
      }),
    onSuccess: async (module) => {
      setNotice(t(module.enabled ? 'system.modules.done_enabled' : 'system.modules.done_disabled'));
      await queryClient.invalidateQueries({ queryKey: MODULES_KEY });
      await queryClient.invalidateQueries({ queryKey: MENUS_KEY });
    },
  });
  // Named from the catalogue in the language shown now (the server's title is in the language of the
  // request that filled the cache, and a developer's own module has no catalogue entry: its title then).
  const titleOf = (module: WireModule) =>
    t(`system.modules.items.${module.name}.title`, { defaultValue: module.title });
  const descriptionOf = (module: WireModule) =>
    t(`system.modules.items.${module.name}.description`, { defaultValue: module.description });
  const toggle = (module: WireModule) => {
    if (module.enabled) setConfirming(module);
    else change.mutate({ name: module.name, enable: true });
  };
  return (
    <Stack spacing={2}>
      <Typography color="text.secondary">{t('system.modules.intro')}</Typography>
      {notice ? <Alert severity="success">{notice}</Alert> : null}
      {change.error ? <Alert severity="error">{change.error.message}</Alert> : null}
      <Paper>
        <KeyRows>
          <Table>
            <TableHead>
              <TableRow>
                <TableCell>{t('system.modules.name')}</TableCell>
                <TableCell>{t('system.modules.description')}</TableCell>
                <TableCell>{t('system.modules.state')}</TableCell>
              </TableRow>
            </TableHead>
            <TableBody>
              {(list.data ?? []).map((module) => (
                <TableRow key={module.name}>
                  <TableCell>
                    {titleOf(module)}{' '}
                    {module.core ? <Chip size="small" label={t('system.modules.core')} /> : null}
                  </TableCell>
                  <TableCell>{descriptionOf(module)}</TableCell>
                  <TableCell>
                    <Switch
                      checked={module.enabled}
                      disabled={module.core || !canUpdate || change.isPending}
                      onChange={() => toggle(module)}
                      slotProps={{
                        input: {
                          'aria-label': `${titleOf(module)}: ${t(module.enabled ? 'system.modules.enabled' : 'system.modules.disabled')}`,
                        },
                      }}
                    />
                  </TableCell>
                </TableRow>
              ))}
            </TableBody>
          </Table>
        </KeyRows>
      </Paper>
      <Dialog open={confirming !== null} onClose={() => setConfirming(null)}>
        <DialogTitle>
          {t('system.modules.confirm_title', { name: confirming ? titleOf(confirming) : '' })}
        </DialogTitle>
        <DialogContent>{t('system.modules.confirm_body')}</DialogContent>
        <DialogActions>
          <Button onClick={() => setConfirming(null)}>{t('system.modules.cancel')}</Button>
          <Button
            color="error"
            onClick={() => {
              if (confirming) change.mutate({ name: confirming.name, enable: false });
              setConfirming(null);
            }}
          >
            {t('system.modules.disable')}
          </Button>
        </DialogActions>
      </Dialog>
    </Stack>
  );
}
