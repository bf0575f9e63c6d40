import Drawer from '@mui/material/Drawer';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';

/**
 * The settings menu on a narrow screen: MUI's modal drawer, a chunk of its own (with Modal's and Slide's
 * code) that SettingsLayout loads when the menu button is first pointed at, focused or pressed; a wide
 * screen never downloads it (./DockedDrawer.tsx).
 */
export function PhoneDrawer({
  open,
  onClose,
  children,
}: {
  open: boolean;
  onClose: () => void;
  children: ReactNode;
}) {
  const { t } = useTranslation();
  return (
    // The modal drawer's paper is a dialog: it needs a name (axe's aria-dialog-name).
    <Drawer
      variant="temporary"
      open={open}
      onClose={onClose}
      slotProps={{ paper: { 'aria-label': t('app.sidebar.navigation') } }}
    >
      {children}
    </Drawer>
  );
}
