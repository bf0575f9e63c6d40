import BlockIcon from '@mui/icons-material/Block';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { hasPermission } from '../providers/permissions.ts';
import { usePermissionList } from '../providers/useCan.ts';
import { EmptyState } from './EmptyState.tsx';
import { LoadingState } from './LoadingState.tsx';

/** A page-level check: the page when `name` is held, otherwise the "No Permission" empty state (spec 2). */
export function RequirePermission({ name, children }: { name: string | undefined; children: ReactNode }) {
  const { t } = useTranslation();
  const { permissions, isPending } = usePermissionList();
  if (!name) return <>{children}</>;
  if (isPending) return <LoadingState />;
  if (hasPermission(permissions, name)) return <>{children}</>;
  return (
    <EmptyState
      icon={<BlockIcon fontSize="inherit" />}
      title={t('app.errors.no_permission.title')}
      description={t('app.errors.no_permission.description')}
    />
  );
}
