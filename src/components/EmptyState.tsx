import Box from '@mui/material/Box';
import Typography from '@mui/material/Typography';
import type { ReactNode } from 'react';

export interface EmptyStateProps {
  icon?: ReactNode;
  title: string;
  description?: string;
  action?: ReactNode;
}

/** The "nothing here" block used by placeholders, No Permission and empty lists. */
export function EmptyState({ icon, title, description, action }: EmptyStateProps) {
  return (
    <Box sx={{ textAlign: 'center', py: 8, px: 2, color: 'text.secondary' }}>
      {icon ? <Box sx={{ fontSize: 56, mb: 1, '& svg': { fontSize: 'inherit' } }}>{icon}</Box> : null}
      <Typography variant="h6" component="h2" color="text.primary">
        {title}
      </Typography>
      {description ? <Typography sx={{ mt: 1 }}>{description}</Typography> : null}
      {action ? <Box sx={{ mt: 3 }}>{action}</Box> : null}
    </Box>
  );
}
