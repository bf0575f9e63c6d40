import MenuItem from '@mui/material/MenuItem';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import TextField from '@mui/material/TextField';
import { useTranslate } from 'react-admin';
import type { ColumnMapping } from './columnMapping.ts';

/**
 * The import's mapping step: one row per column of the file, with the field it fills (or "leave out")
 * chosen from `labels` (field -> label). Each choice is a labelled select, usable by keyboard alone.
 */
export function ColumnMappingTable({
  mapping,
  labels,
  onChange,
  disabled,
}: {
  mapping: ColumnMapping;
  labels: Record<string, string>;
  onChange: (mapping: ColumnMapping) => void;
  disabled?: boolean;
}) {
  const translate = useTranslate();
  return (
    <Table size="small" sx={{ mt: 2 }} aria-label={translate('engine.xlsx.mapping_title')}>
      <TableHead>
        <TableRow>
          <TableCell>{translate('engine.xlsx.file_column')}</TableCell>
          <TableCell>{translate('engine.xlsx.field')}</TableCell>
        </TableRow>
      </TableHead>
      <TableBody>
        {Object.entries(mapping).map(([header, field], i) => (
          <TableRow key={`${i}-${header}`}>
            <TableCell sx={{ wordBreak: 'break-word' }}>{header}</TableCell>
            <TableCell sx={{ minWidth: 160 }}>
              <TextField
                select
                size="small"
                fullWidth
                disabled={disabled}
                label={translate('engine.xlsx.field_for', { column: header })}
                value={field}
                // "Leave out" shows as the value it is, not as an empty box under the label.
                slotProps={{ select: { displayEmpty: true }, inputLabel: { shrink: true } }}
                onChange={(event) => onChange({ ...mapping, [header]: event.target.value })}
              >
                <MenuItem value="">
                  <em>{translate('engine.xlsx.leave_out')}</em>
                </MenuItem>
                {Object.entries(labels).map(([name, label]) => (
                  <MenuItem key={name} value={name}>
                    {label}
                  </MenuItem>
                ))}
              </TextField>
            </TableCell>
          </TableRow>
        ))}
      </TableBody>
    </Table>
  );
}
