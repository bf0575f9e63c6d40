import DensityMediumIcon from '@mui/icons-material/DensityMedium';
import DensitySmallIcon from '@mui/icons-material/DensitySmall';
import ViewWeekIcon from '@mui/icons-material/ViewWeek';
import Button from '@mui/material/Button';
import type { Theme } from '@mui/material/styles';
import useMediaQuery from '@mui/material/useMediaQuery';
import { Children, isValidElement, lazy, Suspense, useState } from 'react';
import type { ReactElement, ReactNode } from 'react';
import { useStore, useTranslate } from 'react-admin';

/**
 * Row density of a list: `compact` (react-admin's small table, the default) or `comfortable` (taller rows).
 */
export type Density = 'compact' | 'comfortable';

/**
 * The key of a list's screen preferences: react-admin's own (`<resource>.datagrid`), so its column chooser,
 * `DatagridConfigurable` and the density toggle all share `preferences.<resource>.datagrid.*` in the store.
 */
export function listPreferenceKey(resource: string): string {
  return `${resource}.datagrid`;
}

/** The list's row density and its setter, remembered per list (`preferences.<key>.density`). */
export function useDensity(preferenceKey: string): [Density, (density: Density) => void] {
  const [density, setDensity] = useStore<Density>(`preferences.${preferenceKey}.density`, 'compact');
  return [density === 'comfortable' ? 'comfortable' : 'compact', setDensity];
}

/** The MUI table size of a density. */
export function tableSize(density: Density): 'small' | 'medium' {
  return density === 'comfortable' ? 'medium' : 'small';
}

/**
 * A toggle for compact rows, in the list's toolbar: pressed = compact (the default), released = comfortable.
 * The choice is stored per list, beside the chosen columns.
 */
export function DensityButton({ preferenceKey }: { preferenceKey: string }) {
  const translate = useTranslate();
  const [density, setDensity] = useDensity(preferenceKey);
  const isCompact = density === 'compact';
  return (
    <Button
      size="small"
      aria-pressed={isCompact}
      startIcon={isCompact ? <DensitySmallIcon /> : <DensityMediumIcon />}
      onClick={() => setDensity(isCompact ? 'comfortable' : 'compact')}
    >
      {translate('engine.table.compact')}
    </Button>
  );
}

const loadColumnChooser = () => import('./ColumnChooser.tsx');
const ColumnChooser = lazy(() => loadColumnChooser().then((m) => ({ default: m.ColumnChooser })));
const prefetchColumnChooser = () => void loadColumnChooser().catch(() => undefined);

/**
 * The table's column chooser: a "Columns" button (as react-admin's SelectColumnsButton shows it on a desk)
 * whose popover loads on the first use; pointing at the button or tabbing to it fetches it ahead. The
 * choice is kept in `preferences.<preferenceKey>.columns`, which DatagridConfigurable reads.
 */
export function ColumnsButton({ preferenceKey }: { preferenceKey: string }) {
  const translate = useTranslate();
  const [anchorEl, setAnchorEl] = useState<HTMLElement | null>(null);
  return (
    <>
      <Button
        size="small"
        startIcon={<ViewWeekIcon />}
        onClick={(event) => setAnchorEl(event.currentTarget)}
        onMouseEnter={prefetchColumnChooser}
        onFocus={prefetchColumnChooser}
        // react-admin's button corrects the small button's icon alignment so.
        sx={{ lineHeight: 1.5 }}
      >
        {translate('ra.action.select_columns', { _: 'Columns' })}
      </Button>
      {anchorEl ? (
        // Nothing in its place while it loads: the popover opens over the page.
        <Suspense fallback={null}>
          <ColumnChooser
            preferenceKey={preferenceKey}
            anchorEl={anchorEl}
            onClose={() => setAnchorEl(null)}
          />
        </Suspense>
      ) : null}
    </>
  );
}

/** Phones (below MUI's `sm`, 600px) get cards instead of a table. */
export function useIsPhone(): boolean {
  return useMediaQuery((theme: Theme) => theme.breakpoints.down('sm'), { noSsr: true });
}

/**
 * The columns the user kept with the column chooser (react-admin's `preferences.<key>.columns`: indexes into
 * the column list), in their order; every column until a choice is made. The card list shows the same fields.
 */
export function useChosenColumns(preferenceKey: string, columns: ReactNode): ReactElement[] {
  const all = Children.toArray(columns).filter(isValidElement);
  const [chosen] = useStore<string[] | undefined>(`preferences.${preferenceKey}.columns`);
  if (!chosen) return all;
  return chosen.flatMap((index) => {
    const column = all[Number(index)];
    return column ? [column] : [];
  });
}

/**
 * Sticky column headers under the app's fixed top bar: react-admin already makes header cells
 * `position: sticky; top: 0`, which would slide them under the bar; this moves them just below it, at every
 * height the bar takes (MUI's toolbar mixin).
 */
export function stickyHeaderSx(theme: Theme): Record<string, unknown> {
  const toTop = (rules: Record<string, unknown>): Record<string, unknown> =>
    Object.fromEntries(
      Object.entries(rules).map(([key, value]) =>
        key === 'minHeight'
          ? ['top', value]
          : [key, typeof value === 'object' && value ? toTop(value as Record<string, unknown>) : value],
      ),
    );
  return { '& .RaDatagrid-headerCell': toTop(theme.mixins.toolbar as Record<string, unknown>) };
}
