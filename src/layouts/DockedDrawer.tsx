import Box from '@mui/material/Box';
import Paper from '@mui/material/Paper';
import type { ReactNode } from 'react';

/**
 * MUI's `<Drawer variant="permanent">` on the left, as it renders (same elements, classes and styles),
 * without the Drawer module: that module also holds the modal drawer and its slide transition (Modal,
 * Slide), which only a narrow screen's menu needs (./PhoneDrawer.tsx, loaded when first opened).
 *
 * @example
 * <DockedDrawer width={240}><nav>...</nav></DockedDrawer>
 */
export function DockedDrawer({ width, children }: { width: number; children: ReactNode }) {
  return (
    <Box className="MuiDrawer-root MuiDrawer-docked" sx={{ flex: '0 0 auto', width, flexShrink: 0 }}>
      <Paper
        square
        elevation={0}
        className="MuiDrawer-paper MuiDrawer-paperAnchorLeft MuiDrawer-paperAnchorDockedLeft"
        sx={{
          overflowY: 'auto',
          display: 'flex',
          flexDirection: 'column',
          height: '100%',
          flex: '1 0 auto',
          zIndex: 'drawer',
          WebkitOverflowScrolling: 'touch',
          position: 'fixed',
          top: 0,
          left: 0,
          outline: 0,
          borderRight: 1,
          borderColor: 'divider',
          width,
          transition: 'width 150ms',
        }}
      >
        {children}
      </Paper>
    </Box>
  );
}
