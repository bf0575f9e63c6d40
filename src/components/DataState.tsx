import Alert from '@mui/material/Alert';
import CircularProgress from '@mui/material/CircularProgress';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import type { ReactNode } from 'react';

export interface DataStateProps {
  /** The first answer has not come yet. */
  isPending: boolean;
  /** What went wrong loading it (shown instead of the content); null or undefined when nothing did. */
  error?: string | null;
  /** It came and holds nothing. */
  isEmpty: boolean;
  /** Said while loading (next to the spinner, and to screen readers). */
  loadingLabel: string;
  /** Said when there is nothing to show. */
  emptyLabel: string;
  /** The table (or list) once there is something to show. */
  children: ReactNode;
}

/**
 * The four states of a block fed by one query: loading, failed, empty, or its content. The system pages'
 * tables (tasks, task runs, queues, jobs) and the department tree share it instead of five near-copies.
 *
 * @example
 * <DataState isPending={list.isPending} error={list.error?.message} isEmpty={!tasks.length}
 *   loadingLabel={t('system.tasks.loading')} emptyLabel={t('system.tasks.empty')}>
 *   <Table>...</Table>
 * </DataState>
 */
export function DataState({ isPending, error, isEmpty, loadingLabel, emptyLabel, children }: DataStateProps) {
  if (isPending && !error) {
    return (
      <Stack direction="row" spacing={1} sx={{ p: 3, alignItems: 'center' }} role="status">
        <CircularProgress size={20} aria-hidden />
        <span>{loadingLabel}</span>
      </Stack>
    );
  }
  if (error) {
    return (
      <Alert severity="error" sx={{ m: 2 }}>
        {error}
      </Alert>
    );
  }
  if (isEmpty) {
    return (
      <Typography color="text.secondary" sx={{ p: 3 }}>
        {emptyLabel}
      </Typography>
    );
  }
  return <>{children}</>;
}
