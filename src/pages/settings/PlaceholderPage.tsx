import ConstructionIcon from '@mui/icons-material/Construction';
import { useTranslation } from 'react-i18next';
import { EmptyState } from '../../components/EmptyState.tsx';

/**
 * A settings page that later work fills. Its title and breadcrumbs come from the settings layout's page
 * header (the menu entry of the same path, else the channel itself); `titleKey` and `detail` are kept for
 * the routes that name it.
 */
export function PlaceholderPage(_props: { titleKey?: string; detail?: string }) {
  const { t } = useTranslation();
  return (
    <EmptyState
      icon={<ConstructionIcon fontSize="inherit" />}
      title={t('app.placeholder.title')}
      description={t('app.placeholder.description')}
    />
  );
}
