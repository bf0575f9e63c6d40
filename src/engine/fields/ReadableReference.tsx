import Typography from '@mui/material/Typography';
import { ReferenceArrayField, ReferenceField, SingleFieldList } from 'react-admin';
import { hasPermission } from '../../providers/permissions.ts';
import { usePermissionList } from '../../providers/useCan.ts';
import { findDescriptor } from '../data/registry.ts';

interface ReferenceProps {
  source: string;
  label?: string;
  sortable?: boolean;
  sortBy?: string;
  /** The referenced resource's name. */
  reference: string;
  /** ReferenceField's: `false` shows the name without a link; what a blank value shows. */
  link?: false;
  emptyText?: string;
}

/**
 * A belongs-to field (react-admin's ReferenceField) when the caller may read the referenced resource; a
 * dash otherwise, where react-admin would fetch, be refused (403) and show a red "No Permission".
 *
 * @example
 * <ReadableReferenceField source="department_id" reference="departments" />
 */
export function ReadableReferenceField(props: ReferenceProps) {
  return useMayRead(props.reference) ? <ReferenceField {...props} /> : <Unreadable />;
}

/** A many-to-many field (ReferenceArrayField, names in a row) under the same rule. */
export function ReadableReferenceArrayField(props: ReferenceProps) {
  return useMayRead(props.reference) ? (
    <ReferenceArrayField {...props}>
      <SingleFieldList linkType={false} />
    </ReferenceArrayField>
  ) : (
    <Unreadable />
  );
}

/** Whether the caller holds the referenced resource's permission (a resource outside the registry: yes). */
function useMayRead(reference: string): boolean {
  const { permissions, isPending } = usePermissionList();
  const target = findDescriptor(reference);
  return isPending || !target || hasPermission(permissions, target.permission);
}

function Unreadable() {
  return (
    <Typography component="span" variant="body2" color="text.secondary">
      —
    </Typography>
  );
}
