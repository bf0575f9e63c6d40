import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import Typography from '@mui/material/Typography';
import { useTranslate } from 'react-admin';
import type { ResourceHeader as Resource } from '../../../resources/meta.ts';
import type { DryRunResult } from './importApi.ts';

/** The dry run's rejected rows: one line per row and field, with the server's message. */
export function ImportErrorTable({
  resource,
  errors,
}: {
  resource: Resource;
  errors: DryRunResult['errors'];
}) {
  const translate = useTranslate();
  const lines = errors.flatMap(({ row, errors: fields }) =>
    Object.entries(fields).map(([field, messages]) => ({ row, field, message: messages.join('; ') })),
  );
  return (
    <>
      <Typography variant="subtitle2" component="h3" sx={{ mt: 2 }}>
        {translate('engine.import.row_errors')}
      </Typography>
      <Table size="small" aria-label={translate('engine.import.row_errors')}>
        <TableHead>
          <TableRow>
            <TableCell>{translate('engine.import.row')}</TableCell>
            <TableCell>{translate('engine.import.field')}</TableCell>
            <TableCell>{translate('engine.import.message')}</TableCell>
          </TableRow>
        </TableHead>
        <TableBody>
          {lines.map(({ row, field, message }) => (
            <TableRow key={`${row}-${field}`}>
              <TableCell>{row}</TableCell>
              <TableCell>
                {field === '_'
                  ? translate('engine.import_counts.whole_row')
                  : translate(`resources.${resource.name}.fields.${field}`, { _: field })}
              </TableCell>
              <TableCell>{message}</TableCell>
            </TableRow>
          ))}
        </TableBody>
      </Table>
    </>
  );
}
