import Button from '@mui/material/Button';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import { useTranslation } from 'react-i18next';
import { DataState } from '../../../components/DataState.tsx';
import { TableScroll } from '../../../components/TableScroll.tsx';
import { JOB_STATES, type WireQueue } from './useJobsPage.ts';

const COUNT_COLUMNS = [...JOB_STATES, 'total'] as const;

/** Every queue with its counts by state; clicking a row (or its name) chooses that queue. */
export function QueuesTable({
  queues,
  isPending,
  error,
  chosen,
  label,
  onChoose,
}: {
  queues: WireQueue[];
  isPending: boolean;
  error: string | null;
  /** The chosen queue's name, or null. */
  chosen: string | null;
  label: (queue: WireQueue) => string;
  onChoose: (name: string) => void;
}) {
  const { t } = useTranslation();
  return (
    <DataState
      isPending={isPending}
      error={error}
      isEmpty={queues.length === 0}
      loadingLabel={t('system.jobs.loading')}
      emptyLabel={t('system.jobs.empty_queues')}
    >
      <TableScroll label={t('system.jobs.queues')}>
        <Table size="small" aria-label={t('system.jobs.queues')}>
          <TableHead>
            <TableRow>
              <TableCell>{t('system.jobs.queue')}</TableCell>
              {COUNT_COLUMNS.map((s) => (
                <TableCell key={s} align="right">
                  {t(`system.jobs.states.${s}`)}
                </TableCell>
              ))}
            </TableRow>
          </TableHead>
          <TableBody>
            {queues.map((q) => (
              <TableRow
                key={q.name}
                hover
                selected={q.name === chosen}
                onClick={() => onChoose(q.name)}
                sx={{ cursor: 'pointer' }}
              >
                <TableCell>
                  <Button size="small" onClick={() => onChoose(q.name)} title={q.name}>
                    {label(q)}
                  </Button>
                </TableCell>
                {COUNT_COLUMNS.map((s) => (
                  <TableCell key={s} align="right">
                    {q.counts[s]}
                  </TableCell>
                ))}
              </TableRow>
            ))}
          </TableBody>
        </Table>
      </TableScroll>
    </DataState>
  );
}
