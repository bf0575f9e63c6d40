import Card from '@mui/material/Card';
import CardContent from '@mui/material/CardContent';
import Grid from '@mui/material/Grid';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableRow from '@mui/material/TableRow';
import Typography from '@mui/material/Typography';
import type { ReactNode } from 'react';
import { KeyRows } from '../../../components/KeyRows.tsx';

/** One card of the monitor's grid: a titled block of figures, half the width on a desk. */
export function MonitorSection({ title, children }: { title: string; children: ReactNode }) {
  return (
    <Grid size={{ xs: 12, md: 6 }}>
      <Card>
        <CardContent>
          <Typography variant="h6" component="h2">
            {title}
          </Typography>
          {children}
        </CardContent>
      </Card>
    </Grid>
  );
}

/** Label/value rows, the label as the row's header. */
export function FigureTable({ pairs }: { pairs: [string, string][] }) {
  return (
    // The table is focusable, so the keyboard reaches its rows (the arrow keys: KeyRows).
    <KeyRows>
      <Table size="small" tabIndex={0}>
        <TableBody>
          {pairs.map(([label, value]) => (
            <TableRow key={label}>
              <TableCell component="th" scope="row">
                {label}
              </TableCell>
              <TableCell>{value}</TableCell>
            </TableRow>
          ))}
        </TableBody>
      </Table>
    </KeyRows>
  );
}
