import UploadIcon from '@mui/icons-material/Upload';
import { lazy, Suspense, useState } from 'react';
import { Button } from 'react-admin';
import type { ResourceHeader as Resource } from '../../../resources/meta.ts';

const loadDialog = () => import('./ImportDialog.tsx');
const ImportDialog = lazy(() => loadDialog().then((m) => ({ default: m.ImportDialog })));
const prefetch = () => void loadDialog().catch(() => undefined);

/**
 * Opens the CSV import dialog (dry-run preview, then the real import). The dialog and its code load on the
 * first click (hovering or focusing the button fetches them ahead).
 */
export function ImportButton({ resource }: { resource: Resource }) {
  const [isOpen, setIsOpen] = useState(false);
  return (
    <>
      <Button
        label="engine.action.import"
        onClick={() => setIsOpen(true)}
        onMouseEnter={prefetch}
        onFocus={prefetch}
      >
        <UploadIcon />
      </Button>
      {isOpen ? (
        // Nothing in its place while it loads: the dialog opens over the page.
        <Suspense fallback={null}>
          <ImportDialog resource={resource} onClose={() => setIsOpen(false)} />
        </Suspense>
      ) : null}
    </>
  );
}
