import DownloadIcon from '@mui/icons-material/Download';
import { useState } from 'react';
import { Button, useListContext, useNotify } from 'react-admin';
import type { Resource } from '../../resources/define.ts';
import { downloadFile } from './download.ts';
import { exportQuery } from './listQuery.ts';

/** Downloads the server's CSV export of the list with its current filters and sort (all rows, no paging). */
export function ExportButton({ resource }: { resource: Resource }) {
  const { filterValues, sort, total } = useListContext();
  const notify = useNotify();
  const [isBusy, setIsBusy] = useState(false);
  const onClick = async () => {
    setIsBusy(true);
    try {
      await downloadFile(
        `${resource.endpoint}/export`,
        exportQuery(resource, { filter: filterValues, sort }),
      );
      notify('engine.export.done', { type: 'success' });
    } catch (error) {
      notify(error instanceof Error ? error.message : 'ra.notification.http_error', { type: 'error' });
    } finally {
      setIsBusy(false);
    }
  };
  return (
    <Button label="engine.action.export" onClick={onClick} disabled={isBusy || total === 0}>
      <DownloadIcon />
    </Button>
  );
}
