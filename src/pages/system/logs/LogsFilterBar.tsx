import FormControlLabel from '@mui/material/FormControlLabel';
import MenuItem from '@mui/material/MenuItem';
import Stack from '@mui/material/Stack';
import Switch from '@mui/material/Switch';
import TextField from '@mui/material/TextField';
import { useTranslation } from 'react-i18next';
import { LocaleDateTextField } from '../../../engine/fields/LocaleDateInput.tsx';
import { LOG_LEVELS, type useLogsPage } from './useLogsPage.ts';

/** The log filters: server, lowest level, time range, text, and the live tail switch (own lines only). */
export function LogsFilterBar({ logs }: { logs: ReturnType<typeof useLogsPage> }) {
  const { t } = useTranslation();
  return (
    <Stack direction={{ xs: 'column', md: 'row' }} spacing={2}>
      <TextField
        select
        size="small"
        label={t('system.logs.node')}
        value={logs.node || logs.shownNode?.id || ''}
        onChange={(e) => logs.chooseNode(e.target.value)}
        sx={{ minWidth: 220 }}
      >
        {logs.nodes.map((n) => (
          <MenuItem key={n.id} value={n.id}>
            {logs.nodeLabel(n)}
          </MenuItem>
        ))}
      </TextField>
      <TextField
        select
        size="small"
        label={t('system.logs.level')}
        value={logs.filters.level}
        onChange={(e) => logs.setFilter('level', e.target.value)}
        sx={{ minWidth: 140 }}
      >
        <MenuItem value="">{t('system.logs.all_levels')}</MenuItem>
        {LOG_LEVELS.map((l) => (
          <MenuItem key={l} value={l}>
            {l}
          </MenuItem>
        ))}
      </TextField>
      {(['from', 'to'] as const).map((name) => (
        <LocaleDateTextField
          key={name}
          kind="datetime"
          size="small"
          label={t(`system.logs.${name}`)}
          value={logs.filters[name]}
          // Half-typed text (null) keeps the last real time as the filter.
          onChange={(native) => {
            if (native !== null) logs.setFilter(name, native);
          }}
        />
      ))}
      <TextField
        size="small"
        type="search"
        label={t('system.logs.text')}
        value={logs.filters.text}
        onChange={(e) => logs.setFilter('text', e.target.value)}
      />
      <FormControlLabel
        control={
          <Switch
            checked={logs.isLive}
            disabled={!!logs.node}
            onChange={(e) => logs.setIsLive(e.target.checked)}
          />
        }
        label={t('system.logs.live')}
      />
    </Stack>
  );
}
