import { act, render, screen } from '@testing-library/react';
import { useState } from 'react';
import { MemoryRouter, useNavigate } from 'react-router-dom';
import { describe, expect, it } from 'vitest';
import { MAIN_CONTENT_ID } from './SkipLink.tsx';
import { useHeadingFocus } from './useHeadingFocus.ts';

/** A shell: a link-like button that navigates, a dialog with a text box, and a page whose heading comes late. */
function Shell() {
  useHeadingFocus();
  const navigate = useNavigate();
  const [heading, setHeading] = useState(false);
  return (
    <>
      <button type="button" onClick={() => navigate('/next')}>
        Go
      </button>
      <button type="button" onClick={() => setHeading(true)}>
        Show heading
      </button>
      <div role="dialog" aria-label="Palette">
        <input aria-label="Search" />
      </div>
      <main id={MAIN_CONTENT_ID}>{heading ? <h1>Next page</h1> : <p>Loading</p>}</main>
    </>
  );
}

const frame = () => act(() => new Promise<void>((resolve) => requestAnimationFrame(() => resolve())));

/** Renders the shell and follows its link, so the next heading to arrive is a new page's. */
async function navigated() {
  render(
    <MemoryRouter>
      <Shell />
    </MemoryRouter>,
  );
  act(() => screen.getByRole('button', { name: 'Go' }).click());
  await frame();
}

describe('useHeadingFocus', () => {
  it('moves the focus to the heading that arrives after a navigation', async () => {
    await navigated();
    act(() => screen.getByRole('button', { name: 'Show heading' }).click());
    await frame();
    expect(document.activeElement).toBe(screen.getByRole('heading', { name: 'Next page' }));
  });

  it('leaves the focus in a dialog the user is typing into', async () => {
    await navigated();
    const search = screen.getByRole('textbox', { name: 'Search' });
    act(() => search.focus());
    act(() => screen.getByRole('button', { name: 'Show heading' }).click());
    await frame();
    expect(document.activeElement).toBe(search);
  });
});
