import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { KeyRows } from './KeyRows.tsx';
import { TableScroll } from './TableScroll.tsx';

const NAMES = ['alpha', 'beta', 'gamma'];

function Rows({ onOpen }: { onOpen: (name: string) => void }) {
  return (
    <TableScroll label="Tasks">
      <table>
        <thead>
          <tr>
            <th>Name</th>
            <th />
          </tr>
        </thead>
        <tbody>
          {NAMES.map((name) => (
            <tr key={name}>
              <td>{name}</td>
              <td>
                <button type="button" onClick={() => onOpen(`delete ${name}`)}>
                  Delete {name}
                </button>
                <button type="button" data-row-primary onClick={() => onOpen(name)}>
                  History {name}
                </button>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </TableScroll>
  );
}

describe('KeyRows and TableScroll (one mechanism with the generated lists)', () => {
  it('moves from the scrolling box through the rows with Up, Down, Home and End; Enter presses the primary action', async () => {
    const user = userEvent.setup();
    const onOpen = vi.fn();
    render(<Rows onOpen={onOpen} />);
    const rows = screen.getAllByRole('row').slice(1);
    screen.getByRole('region', { name: 'Tasks' }).focus();
    await user.keyboard('{ArrowDown}');
    expect(document.activeElement).toBe(rows[0]);
    await user.keyboard('{ArrowDown}{ArrowDown}{ArrowDown}');
    expect(document.activeElement).toBe(rows[2]);
    await user.keyboard('{ArrowUp}');
    expect(document.activeElement).toBe(rows[1]);
    await user.keyboard('{Home}');
    expect(document.activeElement).toBe(rows[0]);
    await user.keyboard('{End}');
    expect(document.activeElement).toBe(rows[2]);
    await user.keyboard('{Enter}');
    expect(onOpen).toHaveBeenCalledExactlyOnceWith('gamma');
  });

  it('moves from a row control to the next row, and leaves Enter on a control to the control', async () => {
    const user = userEvent.setup();
    const onOpen = vi.fn();
    render(<Rows onOpen={onOpen} />);
    const rows = screen.getAllByRole('row').slice(1);
    screen.getByRole('button', { name: 'Delete alpha' }).focus();
    await user.keyboard('{Enter}');
    expect(onOpen).toHaveBeenCalledExactlyOnceWith('delete alpha');
    await user.keyboard('{ArrowDown}');
    expect(document.activeElement).toBe(rows[1]);
  });

  it('moves through cards and list items marked as rows, Enter following the card link', async () => {
    const user = userEvent.setup();
    const onOpen = vi.fn();
    render(
      <KeyRows>
        <input aria-label="Search" />
        <ul>
          {NAMES.map((name) => (
            <li key={name} data-key-row>
              <a
                href={`#${name}`}
                data-row-primary
                onClick={(event) => {
                  event.preventDefault();
                  onOpen(name);
                }}
              >
                {name}
              </a>
            </li>
          ))}
        </ul>
      </KeyRows>,
    );
    const cards = screen.getAllByRole('listitem');
    screen.getByRole('textbox', { name: 'Search' }).focus();
    await user.keyboard('{ArrowDown}');
    // Text keeps its own arrow keys.
    expect(document.activeElement).toBe(screen.getByRole('textbox', { name: 'Search' }));
    screen.getByRole('link', { name: 'alpha' }).focus();
    await user.keyboard('{ArrowDown}');
    expect(document.activeElement).toBe(cards[1]);
    await user.keyboard('{End}{Enter}');
    expect(document.activeElement).toBe(cards[2]);
    expect(onOpen).toHaveBeenCalledExactlyOnceWith('gamma');
  });
});
