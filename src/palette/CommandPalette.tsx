import Box from '@mui/material/Box';
import Dialog from '@mui/material/Dialog';
import InputBase from '@mui/material/InputBase';
import Typography from '@mui/material/Typography';
import useMediaQuery from '@mui/material/useMediaQuery';
import { useId, useMemo, useState } from 'react';
import type { KeyboardEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router-dom';
import { WIDE_SCREEN_QUERY } from '../lib/device.ts';
import { hasPermission } from '../providers/permissions.ts';
import { usePermissionList } from '../providers/useCan.ts';
import { registeredDescriptors } from '../engine/data/registry.ts';
import { usePaletteEntries, type PaletteEntry } from './usePaletteEntries.ts';
import { useRecordSearch, type SearchHit } from './useRecordSearch.ts';

const GROUPS = ['records', 'pages', 'actions'] as const;

/**
 * The command palette (issue 32 item 6): one text box over the pages the caller may open, the actions it may
 * take and the records `GET v1/search` finds, as a combobox with a listbox. Keyboard only: arrows move,
 * Enter runs, Escape closes; the dialog gives focus back where it was. Full screen on a phone.
 * PaletteButton.tsx loads it on first use.
 */
export function CommandPalette({ open, onClose }: { open: boolean; onClose: () => void }) {
  const { t } = useTranslation();
  const isWide = useMediaQuery(WIDE_SCREEN_QUERY, { noSsr: true });
  const [text, setText] = useState('');
  // The option the arrows chose; null until they do after the text changed (then `preferred` is selected).
  const [active, setActive] = useState<number | null>(null);
  const entries = usePaletteEntries();
  const { hits, isSearching } = useRecordSearch(text);
  const records = useRecordEntries(hits);
  const id = useId();
  const shown = useMemo(() => {
    const needle = text.trim().toLocaleLowerCase();
    const matching = needle ? entries.filter((e) => e.label.toLocaleLowerCase().includes(needle)) : entries;
    return [...records, ...matching];
  }, [entries, records, text]);
  // Records come first, but a page or action named exactly as typed is what Enter opens: typing
  // "Departments" and pressing Enter opens the page, even when records (arriving after the debounce) match
  // the word too, and the choice does not jump when they arrive.
  const preferred = useMemo(() => {
    const needle = text.trim().toLocaleLowerCase();
    const exact = needle
      ? shown.findIndex((e) => e.group !== 'records' && e.label.toLocaleLowerCase() === needle)
      : -1;
    return exact === -1 ? 0 : exact;
  }, [shown, text]);
  const current = shown.length ? Math.min(active ?? preferred, shown.length - 1) : -1;
  const optionId = (index: number) => `${id}-option-${index}`;

  const run = (entry: PaletteEntry | undefined) => {
    if (!entry) return;
    onClose();
    entry.run();
  };
  const onKeyDown = (event: KeyboardEvent) => {
    const n = shown.length;
    if (event.key === 'ArrowDown' && n) setActive((current + 1) % n);
    else if (event.key === 'ArrowUp' && n) setActive((current - 1 + n) % n);
    else if (event.key === 'Home' && n) setActive(0);
    else if (event.key === 'End' && n) setActive(n - 1);
    else if (event.key === 'Enter') run(shown[current]);
    else return;
    event.preventDefault();
  };

  return (
    <Dialog
      open={open}
      onClose={onClose}
      fullScreen={!isWide}
      fullWidth
      maxWidth="sm"
      aria-labelledby={`${id}-title`}
      slotProps={{ paper: { sx: { alignSelf: isWide ? 'flex-start' : undefined, mt: isWide ? 10 : 0 } } }}
      TransitionProps={{
        onExited: () => {
          setText('');
          setActive(null);
        },
      }}
    >
      <Typography id={`${id}-title`} component="h2" sx={visuallyHidden}>
        {t('engine.palette.title')}
      </Typography>
      <Box sx={{ px: 2, py: 1.5, borderBottom: 1, borderColor: 'divider' }}>
        <InputBase
          // The dialog exists to type into: focus starts in its only text box (MUI's dialog traps it there).
          // eslint-disable-next-line jsx-a11y/no-autofocus
          autoFocus
          fullWidth
          placeholder={t('engine.palette.placeholder')}
          value={text}
          onChange={(event) => {
            setText(event.target.value);
            setActive(null);
          }}
          onKeyDown={onKeyDown}
          inputProps={{
            role: 'combobox',
            'aria-label': t('engine.palette.label'),
            'aria-expanded': shown.length > 0,
            'aria-controls': `${id}-listbox`,
            'aria-autocomplete': 'list',
            'aria-activedescendant': current >= 0 ? optionId(current) : undefined,
            maxLength: 100,
          }}
        />
      </Box>
      <Box
        id={`${id}-listbox`}
        role="listbox"
        aria-label={t('engine.palette.results')}
        sx={{ overflowY: 'auto', maxHeight: isWide ? '60vh' : undefined, py: 1 }}
      >
        {GROUPS.map((group) => {
          const items = shown
            .map((entry, index) => ({ entry, index }))
            .filter((x) => x.entry.group === group);
          if (items.length === 0) return null;
          return (
            <Box key={group} role="group" aria-labelledby={`${id}-${group}`}>
              <Typography
                id={`${id}-${group}`}
                role="presentation"
                variant="overline"
                color="text.secondary"
                sx={{ display: 'block', px: 2 }}
              >
                {t(`engine.palette.${group}`)}
              </Typography>
              {items.map(({ entry, index }) => (
                <Box
                  key={entry.id}
                  id={optionId(index)}
                  role="option"
                  aria-selected={index === current}
                  ref={(node: HTMLElement | null) => {
                    if (node && index === current) node.scrollIntoView?.({ block: 'nearest' });
                  }}
                  onClick={() => run(entry)}
                  onMouseMove={() => setActive(index)}
                  sx={{
                    px: 2,
                    py: 1,
                    cursor: 'pointer',
                    bgcolor: index === current ? 'action.selected' : undefined,
                  }}
                >
                  <Typography variant="body2">{entry.label}</Typography>
                  {entry.sublabel ? (
                    <Typography variant="caption" color="text.secondary">
                      {entry.sublabel}
                    </Typography>
                  ) : null}
                </Box>
              ))}
            </Box>
          );
        })}
      </Box>
      <Typography role="status" variant="caption" color="text.secondary" sx={{ px: 2, pb: 1 }}>
        {isSearching ? t('engine.palette.searching') : shown.length === 0 ? t('engine.palette.empty') : ''}
      </Typography>
    </Dialog>
  );
}

/** The records found, each opening its edit screen (its show screen for a caller who may not update it). */
function useRecordEntries(hits: SearchHit[]): PaletteEntry[] {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const { permissions } = usePermissionList();
  return useMemo(
    () =>
      hits.map((hit) => {
        const resource = registeredDescriptors.find((r) => r.name === hit.resource);
        const editable =
          resource &&
          (!resource.options.operations || resource.options.operations.includes('update')) &&
          hasPermission(permissions, `${resource.permission}.update`);
        const path = `/settings/${hit.resource}/${hit.id}${editable ? '' : '/show'}`;
        const kind = t(`resources.${hit.resource}.name_one`);
        return {
          id: `record:${hit.resource}:${hit.id}`,
          group: 'records' as const,
          label: hit.label,
          sublabel: hit.sublabel ? `${kind} · ${hit.sublabel}` : kind,
          run: () => navigate(path),
        };
      }),
    [hits, navigate, permissions, t],
  );
}

const visuallyHidden = {
  position: 'absolute',
  width: 1,
  height: 1,
  overflow: 'hidden',
  clip: 'rect(0 0 0 0)',
  whiteSpace: 'nowrap',
} as const;
