import Button from '@mui/material/Button';
import DialogActions from '@mui/material/DialogActions';
import DialogTitle from '@mui/material/DialogTitle';
import MenuItem from '@mui/material/MenuItem';
import { createTheme, ThemeProvider } from '@mui/material/styles';
import { fireEvent, render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { createRef, useState } from 'react';
import { describe, expect, it } from 'vitest';
import Dialog, { dialogClasses, getDialogUtilityClass } from './Dialog.ts';
import Menu, { menuClasses } from './Menu.ts';
import Modal, { ModalManager, modalClasses } from './Modal.ts';
import { onDemand, openOrKeptMounted } from './onDemand.tsx';
import Popover, { getOffsetTop, PopoverPaper, popoverClasses } from './Popover.ts';
import Popper, { popperClasses } from './Popper.ts';

/** A component that shows whether it is open: it proves which one renders, the stand-in or the real one. */
function Real({ open }: { open?: boolean; keepMounted?: boolean }) {
  return <p>{open ? 'real, open' : 'real, closed'}</p>;
}

// Declared before any test runs, and the tests below use fireEvent: until the one on intent, no event
// starts their downloads early (the last tests, with userEvent, point at controls).
let idleDownloads = 0;
const Idle = onDemand<{ open?: boolean }>({
  name: 'Idle',
  themeNames: [],
  load: () => {
    idleDownloads += 1;
    return Promise.resolve({ default: Real });
  },
  shows: openOrKeptMounted,
});
let probeDownloads = 0;
const Probe = onDemand<{ open?: boolean }>({
  name: 'Probe',
  themeNames: [],
  load: () => {
    probeDownloads += 1;
    return Promise.resolve({ default: Real });
  },
  shows: openOrKeptMounted,
});
let offline = true;
let flakyDownloads = 0;
const Flaky = onDemand<{ open?: boolean }>({
  name: 'Flaky',
  themeNames: [],
  load: () => {
    flakyDownloads += 1;
    return offline ? Promise.reject(new TypeError('Failed to fetch')) : Promise.resolve({ default: Real });
  },
  shows: openOrKeptMounted,
});
let themedDownloads = 0;
const Themed = onDemand<{ open?: boolean; keepMounted?: boolean }>({
  name: 'Themed',
  themeNames: ['MuiThemed', 'MuiModal'],
  load: () => {
    themedDownloads += 1;
    return Promise.resolve({ default: Real });
  },
  shows: openOrKeptMounted,
});

describe('onDemand', () => {
  it('renders nothing closed, the real component from its first open on, and keeps it once closed', async () => {
    const { rerender } = render(<Probe open={false} />);
    expect(document.body.textContent).toBe('');
    rerender(<Probe open />);
    expect(await screen.findByText('real, open')).toBeTruthy();
    rerender(<Probe open={false} />);
    expect(screen.getByText('real, closed')).toBeTruthy();
    expect(probeDownloads).toBe(1);
  });

  it('tries a failed download again on the next click or key press, not before', async () => {
    const { rerender } = render(<Flaky open={false} />);
    const before = flakyDownloads;
    rerender(<Flaky open />);
    await waitFor(() => expect(flakyDownloads).toBe(before + 1));
    // The failure settles without a retry: nothing shows, nothing is downloaded again by itself.
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(flakyDownloads).toBe(before + 1);
    expect(document.body.textContent).toBe('');
    offline = false;
    fireEvent.pointerDown(document.body);
    expect(await screen.findByText('real, open')).toBeTruthy();
    expect(flakyDownloads).toBe(before + 2);
  });

  it("applies the theme's default props, in the order MUI passes them on (component, then Modal)", async () => {
    const theme = createTheme({
      components: { MuiModal: { defaultProps: { keepMounted: true } } } as never,
    });
    const { rerender } = render(
      <ThemeProvider theme={theme}>
        <Themed open={false} keepMounted={false} />
      </ThemeProvider>,
    );
    // The component's own prop wins over the Modal default...
    expect(document.body.textContent).toBe('');
    // ...and without it the default keeps it mounted: it shows (closed) at once.
    rerender(
      <ThemeProvider theme={theme}>
        <Themed open={false} />
      </ThemeProvider>,
    );
    expect(await screen.findByText('real, closed')).toBeTruthy();
    expect(themedDownloads).toBe(1);
  });

  it('downloads nothing until the user points at a control, then every stand-in at once', () => {
    render(
      <div>
        <p>Plain text</p>
        <button type="button">A control</button>
        <Idle open={false} />
      </div>,
    );
    fireEvent.pointerOver(screen.getByText('Plain text'));
    expect(idleDownloads).toBe(0);
    fireEvent.pointerOver(screen.getByRole('button', { name: 'A control' }));
    expect(idleDownloads).toBe(1);
    fireEvent.pointerOver(screen.getByRole('button', { name: 'A control' }));
    expect(idleDownloads).toBe(1);
    // A stand-in that arrives later (in a lazy chunk) downloads at once.
    let lateDownloads = 0;
    onDemand({
      name: 'Late',
      themeNames: [],
      load: () => {
        lateDownloads += 1;
        return Promise.resolve({ default: Real });
      },
      shows: openOrKeptMounted,
    });
    expect(lateDownloads).toBe(1);
  });
});

describe("MUI's components on demand", () => {
  it("keep the index's other exports", () => {
    expect(popperClasses.root).toBe('MuiPopper-root');
    expect(modalClasses.backdrop).toBe('MuiModal-backdrop');
    expect(typeof new ModalManager().add).toBe('function');
    expect(popoverClasses.paper).toBe('MuiPopover-paper');
    expect(getOffsetTop(new DOMRect(0, 0, 10, 40), 'bottom')).toBe(40);
    expect(PopoverPaper).toBeTruthy();
    expect(menuClasses.list).toBe('MuiMenu-list');
    expect(dialogClasses.paper).toBe('MuiDialog-paper');
    expect(getDialogUtilityClass('root')).toBe('MuiDialog-root');
  });

  it('Dialog: nothing while closed; opened, it takes the focus, traps Tab and gives it back on Escape', async () => {
    const user = userEvent.setup();
    function Confirm() {
      const [open, setOpen] = useState(false);
      return (
        <>
          <button type="button" onClick={() => setOpen(true)}>
            Delete
          </button>
          <Dialog open={open} onClose={() => setOpen(false)} aria-labelledby="confirm-title">
            <DialogTitle id="confirm-title">Delete the row?</DialogTitle>
            <DialogActions>
              <Button onClick={() => setOpen(false)}>Cancel</Button>
            </DialogActions>
          </Dialog>
        </>
      );
    }
    render(<Confirm />);
    expect(document.querySelector('.MuiModal-root')).toBeNull();
    const trigger = screen.getByRole('button', { name: 'Delete' });
    await user.click(trigger);
    const dialog = await screen.findByRole('dialog', { name: 'Delete the row?' });
    const root = dialog.closest('.MuiDialog-root')!;
    await waitFor(() => expect(root.contains(document.activeElement)).toBe(true));
    await user.keyboard('{Tab}');
    expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Cancel' }));
    await user.keyboard('{Tab}');
    expect(root.contains(document.activeElement)).toBe(true);
    await user.keyboard('{Escape}');
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(document.activeElement).toBe(trigger);

    // Opened again (the real one, already here): the same.
    await user.click(trigger);
    expect(await screen.findByRole('dialog', { name: 'Delete the row?' })).toBeTruthy();
    await user.click(screen.getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(document.activeElement).toBe(trigger);
  });

  it('Menu: opened from the keyboard, the first item takes the focus; Escape gives it back', async () => {
    const user = userEvent.setup();
    function RowsPerPage() {
      const [anchor, setAnchor] = useState<HTMLElement | null>(null);
      return (
        <>
          <button type="button" aria-haspopup="menu" onClick={(event) => setAnchor(event.currentTarget)}>
            Rows per page
          </button>
          <Menu open={Boolean(anchor)} anchorEl={anchor} onClose={() => setAnchor(null)}>
            <MenuItem onClick={() => setAnchor(null)}>10</MenuItem>
            <MenuItem onClick={() => setAnchor(null)}>25</MenuItem>
          </Menu>
        </>
      );
    }
    render(<RowsPerPage />);
    expect(screen.queryByRole('menu')).toBeNull();
    const trigger = screen.getByRole('button', { name: 'Rows per page' });
    trigger.focus();
    await user.keyboard('{Enter}');
    await screen.findByRole('menu');
    await waitFor(() => expect(document.activeElement).toBe(screen.getByRole('menuitem', { name: '10' })));
    await user.keyboard('{ArrowDown}');
    expect(document.activeElement).toBe(screen.getByRole('menuitem', { name: '25' }));
    await user.keyboard('{Escape}');
    await waitFor(() => expect(screen.queryByRole('menu')).toBeNull());
    expect(document.activeElement).toBe(trigger);
  });

  it('Popover and Modal: the ref reaches the real root once open', async () => {
    const anchor = document.createElement('button');
    document.body.append(anchor);
    const popover = createRef<HTMLDivElement>();
    const modal = createRef<HTMLDivElement>();
    const { rerender } = render(
      <>
        <Popover ref={popover} open={false} anchorEl={anchor}>
          Columns
        </Popover>
        <Modal ref={modal} open={false}>
          <div>Modal body</div>
        </Modal>
      </>,
    );
    expect(popover.current).toBeNull();
    expect(modal.current).toBeNull();
    rerender(
      <>
        <Popover ref={popover} open anchorEl={anchor}>
          Columns
        </Popover>
        <Modal ref={modal} open>
          <div>Modal body</div>
        </Modal>
      </>,
    );
    expect(await screen.findByText('Columns')).toBeTruthy();
    expect(await screen.findByText('Modal body')).toBeTruthy();
    expect(popover.current?.classList.contains('MuiPopover-root')).toBe(true);
    expect(modal.current?.classList.contains('MuiModal-root')).toBe(true);
    anchor.remove();
  });

  it('Popper: kept mounted, it loads and mounts hidden at once, as the real one does', async () => {
    const anchor = document.createElement('button');
    document.body.append(anchor);
    render(
      <Popper open={false} keepMounted anchorEl={anchor}>
        Tooltip text
      </Popper>,
    );
    const tooltip = await screen.findByRole('tooltip', { hidden: true });
    expect(tooltip.textContent).toBe('Tooltip text');
    expect(tooltip.style.display).toBe('none');
    anchor.remove();
  });
});
