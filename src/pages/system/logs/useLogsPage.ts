import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { LogEntry } from '../../../../schemas/logs.ts';
import type { Paged } from '../../../../schemas/pagination.ts';
import { useLiveEvents } from '../../../events/useLiveEvents.ts';
import { httpClient } from '../../../providers/httpClient.ts';

export const LOG_LEVELS = ['trace', 'debug', 'info', 'warn', 'error', 'fatal'] as const;
/** Live lines kept above the first page. */
const MAX_LIVE = 200;

export type { LogEntry };
export interface LogNode {
  id: string;
  host: string;
  pid: number;
  is_self: boolean;
}
type LogPage = Paged<
  LogEntry,
  {
    /** Whose lines these are: this server's files, or what another server published to the database. */
    node?: LogNode & { source: 'files' | 'published' };
    /** The live servers to choose from. */
    nodes?: (LogNode & { status: string })[];
  }
>;
export type LogFilter = 'level' | 'from' | 'to' | 'text';

/**
 * Everything the system logs page loads and does (the controller; LogsPage only renders): the filters
 * (server, level, time range, text), paging, the page of lines, and the live tail (new lines that pass the
 * filters, kept above the first page, only for this server's own lines). Changing a filter goes back to
 * the first page and drops the tail.
 *
 * @example
 * const logs = useLogsPage(); logs.setFilter('level', 'warn'); logs.rows.map(...)
 */
export function useLogsPage() {
  const { t } = useTranslation();
  const [filters, setFilters] = useState<Record<LogFilter, string>>({
    level: '',
    from: '',
    to: '',
    text: '',
  });
  const [page, setPage] = useState(0);
  const [size, setSize] = useState(50);
  const [isLive, setIsLive] = useState(false);
  const [live, setLive] = useState<LogEntry[]>([]);
  const [node, setNode] = useState('');
  const query = {
    node: node || undefined,
    level: filters.level || undefined,
    from: filters.from ? new Date(filters.from).toISOString() : undefined,
    to: filters.to ? new Date(filters.to).toISOString() : undefined,
    text: filters.text.trim() || undefined,
    page: page + 1,
    size,
  };
  const logs = useQuery({
    queryKey: ['system', 'logs', query],
    queryFn: () => httpClient<LogPage>('v1/system/logs', { query }),
    placeholderData: keepPreviousData,
  });
  const isTailing = isLive && !node;
  useLiveEvents((event) => {
    if (event.type !== 'log') return;
    const entry = event.data as LogEntry;
    const rank = (level: string) => LOG_LEVELS.indexOf(level as (typeof LOG_LEVELS)[number]);
    if (filters.level && rank(entry.level) < rank(filters.level)) return;
    if (query.text && !JSON.stringify(entry.record).toLowerCase().includes(query.text.toLowerCase())) return;
    setLive((lines) => [entry, ...lines].slice(0, MAX_LIVE));
  }, isTailing);
  const resetPage = () => {
    setPage(0);
    setLive([]);
  };
  const pagination = logs.data?.meta.pagination;

  return {
    filters,
    node,
    page,
    size,
    isLive: isTailing,
    /** Live lines (first page only) above the page of lines from the server. */
    rows: [...(isTailing && page === 0 ? live : []), ...(logs.data?.data ?? [])],
    hasLoaded: logs.data !== undefined,
    isFetching: logs.isFetching,
    isError: logs.isError,
    /** The total once the first page has come, else -1 (unknown: no "0-0 of 0" while loading). */
    total: pagination ? pagination.total : -1,
    isTotalApproximate: Boolean(pagination?.total_is_capped || pagination?.total_is_estimate),
    shownNode: logs.data?.meta.node,
    nodes: logs.data?.meta.nodes ?? [],
    nodeLabel: (n: LogNode) =>
      t(n.is_self ? 'system.logs.node_self' : 'system.logs.node_option', {
        host: n.host,
        pid: n.pid,
        id: n.id,
      }),
    setFilter: (name: LogFilter, value: string) => {
      setFilters((current) => ({ ...current, [name]: value }));
      resetPage();
    },
    chooseNode: (id: string) => {
      const chosen = logs.data?.meta.nodes?.find((n) => n.id === id);
      setNode(chosen && !chosen.is_self ? chosen.id : '');
      resetPage();
    },
    setIsLive,
    setPage,
    setSize: (next: number) => {
      setSize(next);
      resetPage();
    },
  };
}
