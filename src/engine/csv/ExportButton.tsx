import DownloadIcon from '@mui/icons-material/Download';
import { lazy, Suspense, useState } from 'react';
import { Button, useListContext } from 'react-admin';
import type { ResourceDescriptor as Resource } from '../data/descriptor.ts';

/**
 * The format menu and everything an export does (ExportMenu.tsx) load when the button is first pointed at,
 * focused or pressed: a list shows the button, not the menu (issue 37 item 6). Fetching the menu fetches the
 * request, job and download code and the job's dialog too, so the choice does not wait for the network.
 */
const loadMenu = () => import('./ExportMenu.tsx');
const ExportMenu = lazy(() => loadMenu().then((m) => ({ default: m.ExportMenu })));
const prefetch = () =>
  void loadMenu()
    .then((m) => m.prefetchExport())
    .catch(() => undefined);

/**
 * A menu of the two formats (CSV, Excel .xlsx) that downloads the server's export of the list with its current filters and sort (all rows, no paging). A
 * large export runs as a job on the server (202): a dialog shows its progress live and offers the file
 * once it is written. The request and job code and the dialog load on demand: a list that is never exported
 * does not carry them. It names no columns: the server's default set is the caller's readable ones (no
 * hidden field, no reference to records it may not read), which a `fields=` from here could only get wrong
 * (a 403 for such a reference).
 */
export function ExportButton({ resource }: { resource: Resource }) {
  const { total } = useListContext();
  const [isBusy, setIsBusy] = useState(false);
  const [menuAnchor, setMenuAnchor] = useState<HTMLElement | null>(null);
  // Once opened, the menu stays mounted: a job it started outlives the menu.
  const [isMenuWanted, setIsMenuWanted] = useState(false);
  return (
    <>
      <Button
        label="engine.action.export"
        onClick={(event) => {
          setMenuAnchor(event.currentTarget);
          setIsMenuWanted(true);
        }}
        onMouseEnter={prefetch}
        onFocus={prefetch}
        disabled={isBusy || total === 0}
        aria-haspopup="menu"
        aria-expanded={menuAnchor ? 'true' : undefined}
        aria-controls={menuAnchor ? 'engine-export-menu' : undefined}
      >
        <DownloadIcon />
      </Button>
      {isMenuWanted ? (
        // Nothing in its place while it loads: the menu opens over the page.
        <Suspense fallback={null}>
          <ExportMenu
            resource={resource}
            menuAnchor={menuAnchor}
            onCloseMenu={() => setMenuAnchor(null)}
            isBusy={isBusy}
            onBusy={setIsBusy}
          />
        </Suspense>
      ) : null}
    </>
  );
}
