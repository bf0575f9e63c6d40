import ConstructionIcon from '@mui/icons-material/Construction';
import Typography from '@mui/material/Typography';
import { useTranslation } from 'react-i18next';
import { useParams } from 'react-router-dom';
import { SETTINGS_MENU } from '../../../schemas/permissions.ts';
import type { MenuItem } from '../../../schemas/permissions.ts';
import { EmptyState } from '../../components/EmptyState.tsx';

/**
 * A settings page that later work fills. `titleKey` names it; without one (the `/settings/:channel` catch-all)
 * the menu entry of the same path is used, else the channel itself.
 */
export function PlaceholderPage({ titleKey, detail }: { titleKey?: string; detail?: string }) {
  const { t } = useTranslation();
  const { channel, id } = useParams();
  const fromMenu = channel ? findByPath(SETTINGS_MENU, `/settings/${channel}`)?.title : undefined;
  const title = titleKey ? t(titleKey) : fromMenu ? t(fromMenu) : (channel ?? '');
  const subtitle =
    detail === 'create' ? t('app.settings.create') : id ? t('app.settings.edit', { id }) : null;
  return (
    <>
      <Typography variant="h5" component="h1" gutterBottom>
        {title}
        {subtitle ? ` · ${subtitle}` : ''}
      </Typography>
      <EmptyState
        icon={<ConstructionIcon fontSize="inherit" />}
        title={t('app.placeholder.title')}
        description={t('app.placeholder.description')}
      />
    </>
  );
}

function findByPath(items: readonly MenuItem[], path: string): MenuItem | undefined {
  for (const item of items) {
    if (item.path === path) return item;
    const found = findByPath(item.children ?? [], path);
    if (found) return found;
  }
  return undefined;
}
