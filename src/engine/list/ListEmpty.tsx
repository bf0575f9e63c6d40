import Box from '@mui/material/Box';
import Typography from '@mui/material/Typography';
import { CreateButton, useResourceDefinition, useTranslate } from 'react-admin';
import type { ResourceHeader as Resource } from '../../../resources/meta.ts';
import { ImportButton } from '../csv/ImportButton.tsx';
import type { Ability } from '../data/useAbilities.ts';
import { TrashButton } from '../trash/TrashButton.tsx';

/** The empty state of a list without any record: say so, and offer create, import and the trash (where deleted records may be). */
export function ListEmpty({ resource, can }: { resource: Resource; can: Record<Ability, boolean> }) {
  const translate = useTranslate();
  const { hasCreate } = useResourceDefinition({ resource: resource.name });
  return (
    <Box sx={{ textAlign: 'center', py: 6 }}>
      <Typography variant="h6" component="p" color="text.secondary" gutterBottom>
        {translate('engine.list.empty')}
      </Typography>
      {hasCreate && can.create ? <CreateButton resource={resource.name} /> : null}
      {can.import ? <ImportButton resource={resource} /> : null}
      <TrashButton resource={resource} can={can} />
    </Box>
  );
}
