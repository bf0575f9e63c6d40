import List from '@mui/material/List';
import ListItemButton from '@mui/material/ListItemButton';
import ListItemText from '@mui/material/ListItemText';
import Box from '@mui/material/Box';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink } from 'react-router-dom';
import type { RecordEvent } from '../../events/eventStream.ts';
import { useLiveEvents } from '../../events/useLiveEvents.ts';
import { countsKey, useSavedViews, useViewCounts, type SavedView, type ViewCount } from './savedViews.ts';

/** Bursts of changes (an import, a bulk delete) recount once. */
const DEBOUNCE_MS = 500;
const PAGE_PREFIX = '/settings/';

/**
 * The user's pinned views of one menu page, under its entry, each with its live count (`GET
 * v1/user/views/counts`, within the user's scope). The counts are fetched again, debounced, when the live
 * event stream reports a change of a record of a pinned view's resource (the stream carries only the
 * records the user may read). Nothing when no view of the page is pinned.
 *
 * @example
 * <PinnedViews path="/settings/staff" page="Staff" />
 */
export function PinnedViews({
  path,
  page,
  onNavigate,
}: {
  path: string | undefined;
  page: string;
  onNavigate?: () => void;
}) {
  const { t } = useTranslation();
  const { data: views = [] } = useSavedViews();
  const pinned = views.filter((view) => view.pinned);
  const { data: counts = {} } = useViewCounts(pinned.length > 0);
  useRecount(pinned);
  const mine = pinned.filter((view) => path !== undefined && `${PAGE_PREFIX}${view.resource}` === path);
  if (!mine.length) return null;
  return (
    <li>
      <List dense disablePadding aria-label={t('engine.views.pinned_menu', { page })}>
        {mine.map((view) => (
          <li key={view.id}>
            <ListItemButton
              component={RouterLink}
              to={`${path}?view=${view.id}`}
              onClick={onNavigate}
              sx={{ minHeight: 40, pl: 9 }}
            >
              <ListItemText primary={view.name} slotProps={{ primary: { noWrap: true } }} />
              <CountBadge count={counts[view.id]} />
            </ListItemButton>
          </li>
        ))}
      </List>
    </li>
  );
}

function CountBadge({ count }: { count: ViewCount | undefined }) {
  const { t } = useTranslation();
  if (count === undefined) return null;
  const isInvalid = typeof count !== 'number';
  return (
    <Box
      component="span"
      title={isInvalid ? t('engine.views.count_invalid', { message: count.message }) : undefined}
      sx={{
        ml: 1,
        px: 1,
        borderRadius: 2,
        bgcolor: 'action.selected',
        fontSize: '0.75rem',
        fontVariantNumeric: 'tabular-nums',
      }}
    >
      {isInvalid ? '!' : count.toLocaleString()}
    </Box>
  );
}

/** Invalidates the counts when a record of a pinned view's resource changes (or events were missed). */
function useRecount(pinned: SavedView[]): void {
  const client = useQueryClient();
  const timer = useRef<ReturnType<typeof setTimeout> | null>(null);
  const resources = new Set(pinned.map((view) => view.resource));
  useEffect(
    () => () => {
      if (timer.current) clearTimeout(timer.current);
    },
    [],
  );
  useLiveEvents((event) => {
    const isCounted =
      event.type === 'reset' ||
      (event.type === 'record' && resources.has((event.data as RecordEvent).resource));
    if (!isCounted) return;
    if (timer.current) clearTimeout(timer.current);
    timer.current = setTimeout(() => void client.invalidateQueries({ queryKey: countsKey }), DEBOUNCE_MS);
  }, resources.size > 0);
}
