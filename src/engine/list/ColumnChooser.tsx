import Box from '@mui/material/Box';
import Popover from '@mui/material/Popover';
import { FieldsSelector, PreferenceKeyContextProvider } from 'react-admin';

/**
 * The column chooser's popover: react-admin's FieldsSelector (a switch per column, dragged to reorder, hide
 * all / show all) over the list's preferences (`preferences.<preferenceKey>.columns`, as its own
 * SelectColumnsButton keeps them). Loaded when the "Columns" button is first used (ColumnsButton).
 */
export function ColumnChooser({
  preferenceKey,
  anchorEl,
  onClose,
}: {
  preferenceKey: string;
  anchorEl: HTMLElement;
  onClose: () => void;
}) {
  return (
    <Popover
      open
      anchorEl={anchorEl}
      onClose={onClose}
      anchorOrigin={{ vertical: 'bottom', horizontal: 'center' }}
      transformOrigin={{ vertical: 'top', horizontal: 'center' }}
    >
      <Box sx={{ p: 1 }}>
        <PreferenceKeyContextProvider value={`preferences.${preferenceKey}`}>
          <FieldsSelector />
        </PreferenceKeyContextProvider>
      </Box>
    </Popover>
  );
}
