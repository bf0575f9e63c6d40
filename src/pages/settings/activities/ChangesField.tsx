import Box from '@mui/material/Box';
import Typography from '@mui/material/Typography';
import { useRecordContext } from 'react-admin';

type Changes = Record<string, [unknown, unknown]>;

/** A log row's changes as `field: old -> new` lines (values shortened; secrets arrive masked). */
export function ChangesField({ label: _label }: { label?: string }) {
  const record = useRecordContext<{ changes?: Changes | null }>();
  const changes = record?.changes;
  if (!changes || typeof changes !== 'object' || Object.keys(changes).length === 0) return null;
  return (
    <Box component="ul" sx={{ m: 0, pl: 2 }}>
      {Object.entries(changes).map(([field, pair]) => {
        const [before, after] = Array.isArray(pair) ? pair : [undefined, pair];
        return (
          <Typography key={field} component="li" variant="body2" sx={{ wordBreak: 'break-word' }}>
            <strong>{field}</strong>: {show(before)} → {show(after)}
          </Typography>
        );
      })}
    </Box>
  );
}

function show(value: unknown): string {
  if (value === null || value === undefined) return '∅';
  const text = typeof value === 'string' ? value : JSON.stringify(value);
  return text.length > 80 ? `${text.slice(0, 77)}...` : text;
}
