import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import MenuItem from '@mui/material/MenuItem';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { PERMISSION } from '../../../schemas/permissions.ts';
import { registeredDescriptors } from '../../engine/data/registry.ts';
import { httpClient } from '../../providers/httpClient.ts';
import { useCan } from '../../providers/useCan.ts';

/** What `GET v1/user/access/explain` answers (contract amendment "Who sees which rows and fields"). */
interface Explanation {
  can: { read: boolean; update: boolean; delete: boolean };
  because: string[];
  fields: Record<string, 'hidden' | 'read' | 'write'>;
}

const ACTIONS = ['read', 'update', 'delete'] as const;

/**
 * "Check access" on a staff member's page (issue 30, item 6): pick a resource and, optionally, a record id;
 * the server answers whether this member may read, update and delete it, the sentences that decided (roles,
 * data scopes, permissions) and each field's access. Shown to callers holding `system.users.roles` for a
 * member who has an account.
 */
export function AccessCheckPanel({ userId }: { userId: string }) {
  const { t } = useTranslation();
  const allowed = useCan(PERMISSION.usersRoles);
  const [resource, setResource] = useState(registeredDescriptors[0]?.name ?? '');
  const [recordId, setRecordId] = useState('');
  const [answer, setAnswer] = useState<Explanation | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [isLoading, setIsLoading] = useState(false);
  if (!allowed) return null;

  const check = async (event: FormEvent) => {
    event.preventDefault();
    setError(null);
    setIsLoading(true);
    try {
      const id = recordId.trim();
      setAnswer(
        await httpClient<Explanation>('v1/user/access/explain', {
          query: { user_id: userId, resource, ...(id ? { id } : {}) },
        }),
      );
    } catch (e) {
      setAnswer(null);
      setError(e instanceof Error ? e.message : String(e));
    } finally {
      setIsLoading(false);
    }
  };
  const fieldLabel = (field: string) => t(`resources.${resource}.fields.${field}`, { defaultValue: field });

  return (
    <Paper sx={{ p: 2, mt: 2 }} component="section" aria-labelledby="access-check-title">
      <Typography id="access-check-title" variant="subtitle1" component="h2" sx={{ mb: 1 }}>
        {t('settings.people.access_check.title')}
      </Typography>
      <Stack
        component="form"
        onSubmit={check}
        direction={{ xs: 'column', sm: 'row' }}
        spacing={1}
        alignItems={{ sm: 'flex-start' }}
      >
        <TextField
          select
          size="small"
          label={t('settings.people.access_check.resource')}
          value={resource}
          onChange={(e) => {
            setResource(e.target.value);
            setAnswer(null);
          }}
          sx={{ minWidth: 200 }}
        >
          {registeredDescriptors.map((r) => (
            <MenuItem key={r.name} value={r.name}>
              {t(`resources.${r.name}.name`, { count: 2, defaultValue: r.name })}
            </MenuItem>
          ))}
        </TextField>
        <TextField
          size="small"
          label={t('settings.people.access_check.record_id')}
          helperText={t('settings.people.access_check.record_id_hint')}
          value={recordId}
          onChange={(e) => setRecordId(e.target.value)}
          slotProps={{ htmlInput: { inputMode: 'numeric', pattern: '[0-9]*' } }}
        />
        <Button type="submit" variant="outlined" disabled={isLoading || !resource}>
          {t('settings.people.access_check.check')}
        </Button>
      </Stack>
      {error ? (
        <Alert severity="error" sx={{ mt: 1 }}>
          {error}
        </Alert>
      ) : null}
      {answer ? (
        <div aria-live="polite">
          <Stack direction="row" spacing={1} sx={{ mt: 2, flexWrap: 'wrap', rowGap: 1 }}>
            {ACTIONS.map((action) => (
              <Chip
                key={action}
                color={answer.can[action] ? 'success' : 'default'}
                variant={answer.can[action] ? 'filled' : 'outlined'}
                label={t(`settings.people.access_check.${answer.can[action] ? 'can' : 'cannot'}`, {
                  action: t(`settings.people.access_check.actions.${action}`),
                })}
              />
            ))}
          </Stack>
          <Typography variant="subtitle2" component="h3" sx={{ mt: 2 }}>
            {t('settings.people.access_check.because')}
          </Typography>
          <ul>
            {answer.because.map((sentence, i) => (
              <li key={i}>
                <Typography variant="body2">{sentence}</Typography>
              </li>
            ))}
          </ul>
          <Typography variant="subtitle2" component="h3">
            {t('settings.people.access_check.fields')}
          </Typography>
          <Table size="small" sx={{ maxWidth: 480 }}>
            <TableHead>
              <TableRow>
                <TableCell>{t('settings.people.access_check.field')}</TableCell>
                <TableCell>{t('settings.people.access_check.access')}</TableCell>
              </TableRow>
            </TableHead>
            <TableBody>
              {Object.entries(answer.fields).map(([field, access]) => (
                <TableRow key={field}>
                  <TableCell>{fieldLabel(field)}</TableCell>
                  <TableCell>{t(`settings.people.access_check.levels.${access}`)}</TableCell>
                </TableRow>
              ))}
            </TableBody>
          </Table>
        </div>
      ) : null}
    </Paper>
  );
}
