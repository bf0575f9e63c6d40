import Box from '@mui/material/Box';
import Typography from '@mui/material/Typography';
import { CreateButton, useTranslate } from 'react-admin';
import type { Resource } from '../../resources/define.ts';
import { ImportButton } from './ImportButton.tsx';

/** The empty state of a list without any record: say so, and offer create and import. */
export function ListEmpty({ resource }: { resource: Resource }) {
  const translate = useTranslate();
  return (
    <Box sx={{ textAlign: 'center', py: 6 }}>
      <Typography variant="h6" component="p" color="text.secondary" gutterBottom>
        {translate('engine.list.empty')}
      </Typography>
      <CreateButton resource={resource.name} />
      <ImportButton resource={resource} />
    </Box>
  );
}
