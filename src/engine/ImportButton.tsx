import UploadIcon from '@mui/icons-material/Upload';
import { useState } from 'react';
import { Button } from 'react-admin';
import type { ResourceHeader as Resource } from '../../resources/meta.ts';
import { ImportDialog } from './ImportDialog.tsx';

/** Opens the CSV import dialog (dry-run preview, then the real import). */
export function ImportButton({ resource }: { resource: Resource }) {
  const [isOpen, setIsOpen] = useState(false);
  return (
    <>
      <Button label="engine.action.import" onClick={() => setIsOpen(true)}>
        <UploadIcon />
      </Button>
      {isOpen ? <ImportDialog resource={resource} onClose={() => setIsOpen(false)} /> : null}
    </>
  );
}
