import Drawer from '@mui/material/Drawer';
import type { ReactNode } from 'react';

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
  return (
    <Drawer variant="temporary" open={open} onClose={onClose}>
      {children}
    </Drawer>
  );
}
