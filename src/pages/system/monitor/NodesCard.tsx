import Card from '@mui/material/Card';
import CardContent from '@mui/material/CardContent';
import Chip from '@mui/material/Chip';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import Typography from '@mui/material/Typography';
import { useQuery } from '@tanstack/react-query';
import { formatDateTime } from '../../../lib/localeDate.ts';
import { useTranslation } from 'react-i18next';
import { httpClient } from '../../../providers/httpClient.ts';
import type { ClusterNode } from '../../../../schemas/monitor.ts';
import { formatBytes } from '../../../../schemas/bytes.ts';
import { KeyRows } from '../../../components/KeyRows.tsx';

/** Heartbeats arrive every 10 s by default; the list is read again every 5 s. */
const REFRESH_MS = 5_000;

/** The servers sharing the database: live ones with their last figures, and those gone. */
export function NodesCard() {
  const { t, i18n } = useTranslation();
  const nodes = useQuery({
    queryKey: ['system', 'nodes'],
    queryFn: () => httpClient<ClusterNode[]>('v1/system/nodes'),
    refetchInterval: REFRESH_MS,
  });
  const self = nodes.data?.find((n) => n.is_self);
  const time = (iso: string) => formatDateTime(iso, i18n.language);
  const columns = ['node', 'host', 'pid', 'version', 'started', 'last_seen', 'cpu', 'rss', 'status'] as const;
  return (
    <Card>
      <CardContent>
        <Typography variant="h6" component="h2">
          {t('system.monitor.nodes_title')}
        </Typography>
        <Typography variant="body2" color="text.secondary" sx={{ mb: 1 }}>
          {t('system.monitor.nodes_intro', { node: self ? `${self.host} · ${self.id}` : '—' })}
        </Typography>
        <KeyRows>
          <Table size="small" aria-label={t('system.monitor.nodes_title')} tabIndex={0}>
            <TableHead>
              <TableRow>
                {columns.map((c) => (
                  <TableCell key={c}>{t(`system.monitor.nodes_${c}`)}</TableCell>
                ))}
              </TableRow>
            </TableHead>
            <TableBody>
              {(nodes.data ?? []).map((node) => (
                <TableRow key={node.id} sx={node.status === 'gone' ? { opacity: 0.6 } : undefined}>
                  <TableCell sx={{ fontFamily: 'monospace' }}>
                    {node.id}
                    {node.is_self ? ` (${t('system.monitor.node_self')})` : ''}
                  </TableCell>
                  <TableCell>{node.host}</TableCell>
                  <TableCell>{node.pid}</TableCell>
                  <TableCell>{node.version}</TableCell>
                  <TableCell sx={{ whiteSpace: 'nowrap' }}>{time(node.started_at)}</TableCell>
                  <TableCell sx={{ whiteSpace: 'nowrap' }}>{time(node.last_seen)}</TableCell>
                  <TableCell>
                    {node.figures ? `${(node.figures.host.cpu_usage * 100).toFixed(1)}%` : '—'}
                  </TableCell>
                  <TableCell>{formatBytes(node.figures?.process.rss)}</TableCell>
                  <TableCell>
                    <Chip
                      size="small"
                      color={node.status === 'live' ? 'success' : 'default'}
                      label={t(
                        node.status === 'live' ? 'system.monitor.node_live' : 'system.monitor.node_gone',
                      )}
                    />
                  </TableCell>
                </TableRow>
              ))}
              {nodes.data && nodes.data.length === 0 ? (
                <TableRow>
                  <TableCell colSpan={columns.length}>{t('system.monitor.nodes_empty')}</TableCell>
                </TableRow>
              ) : null}
            </TableBody>
          </Table>
        </KeyRows>
      </CardContent>
    </Card>
  );
}
