import RestoreFromTrashIcon from '@mui/icons-material/RestoreFromTrash';
import { Link } from 'react-router-dom';
import { Button, useBasename } from 'react-admin';
import type { ResourceHeader } from '../../../resources/meta.ts';
import type { Ability } from '../data/useAbilities.ts';
import { hasTrash } from './trash.ts';

/**
 * The list's link to its trash (`<list path>/trash`), for a caller who may delete the resource (the trash's
 * calls need the delete permission); nothing for a resource without a trash.
 */
export function TrashButton({ resource, can }: { resource: ResourceHeader; can: Record<Ability, boolean> }) {
  const basename = useBasename();
  if (!can.delete || !hasTrash(resource)) return null;
  return (
    <Button component={Link} label="engine.trash.open" to={`${basename}/${resource.name}/trash`}>
      <RestoreFromTrashIcon />
    </Button>
  );
}
