import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { PublicProviders } from '../PublicProviders.tsx';
import { i18n, initI18n } from '../i18n/i18n.ts';
import { Button, TextField } from './controls.tsx';
import { PublicHeader } from './PublicHeader.tsx';

beforeAll(async () => {
  await initI18n('en');
});
afterEach(async () => {
  await i18n.changeLanguage('en');
  localStorage.clear();
});

function renderHeader() {
  return render(
    <PublicProviders>
      <PublicHeader />
    </PublicProviders>,
  );
}

describe('the language menu', () => {
  it('opens from the keyboard on the current language, moves with arrows and closes on Escape', async () => {
    const user = userEvent.setup();
    renderHeader();
    const button = screen.getByRole('button', { name: 'English, change language' });
    expect(button.getAttribute('aria-haspopup')).toBe('menu');
    expect(button.getAttribute('aria-expanded')).toBeNull();

    button.focus();
    await user.keyboard('{ArrowDown}');
    const menu = screen.getByRole('menu', { name: 'Change language' });
    expect(button.getAttribute('aria-expanded')).toBe('true');
    expect(button.getAttribute('aria-controls')).toBe(menu.id);
    await waitFor(() =>
      expect(document.activeElement).toBe(screen.getByRole('menuitem', { name: 'English' })),
    );
    await user.keyboard('{ArrowDown}');
    expect(document.activeElement).toBe(screen.getByRole('menuitem', { name: '简体中文' }));
    await user.keyboard('{End}');
    expect(document.activeElement).toBe(screen.getByRole('menuitem', { name: 'English' }));

    await user.keyboard('{Escape}');
    expect(screen.queryByRole('menu')).toBeNull();
    expect(document.activeElement).toBe(button);
    expect(i18n.language).toBe('en');
  });

  it('chooses a language with Enter and gives focus back to the button', async () => {
    const user = userEvent.setup();
    renderHeader();
    await user.click(screen.getByRole('button', { name: 'English, change language' }));
    await waitFor(() => expect(document.activeElement?.textContent).toBe('English'));
    await user.keyboard('{Home}{Enter}');
    const button = await screen.findByRole('button', { name: '简体中文，切换语言' });
    expect(screen.queryByRole('menu')).toBeNull();
    expect(document.activeElement).toBe(button);
    expect(localStorage.getItem('locale')).toBe('zh-CN');
  });

  it('closes on Tab, and Tab goes on to the control after the button', async () => {
    const user = userEvent.setup();
    renderHeader();
    await user.click(screen.getByRole('button', { name: 'English, change language' }));
    await waitFor(() => expect(document.activeElement?.getAttribute('role')).toBe('menuitem'));
    await user.tab();
    expect(screen.queryByRole('menu')).toBeNull();
    expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Switch to dark mode' }));
  });

  it('closes on a click outside, choosing nothing', async () => {
    const user = userEvent.setup();
    renderHeader();
    await user.click(screen.getByRole('button', { name: 'English, change language' }));
    expect(screen.getByRole('menu')).toBeTruthy();
    await user.click(document.body);
    expect(screen.queryByRole('menu')).toBeNull();
    expect(i18n.language).toBe('en');
  });
});

describe('the light/dark switch', () => {
  it('switches the page to dark mode (data-theme on <html>) and keeps the choice', async () => {
    const user = userEvent.setup();
    renderHeader();
    expect(document.documentElement.dataset.theme).toBe('light');
    await user.click(screen.getByRole('button', { name: 'Switch to dark mode' }));
    expect(document.documentElement.dataset.theme).toBe('dark');
    expect(localStorage.getItem('theme')).toBe('dark');
    expect(screen.getByRole('button', { name: 'Switch to light mode' })).toBeTruthy();
  });
});

describe('controls', () => {
  it('a text field is named by its label, required, and described by its error', async () => {
    const user = userEvent.setup();
    function Field() {
      const [value, setValue] = useState('');
      return (
        <TextField
          name="code"
          label="Code"
          value={value}
          onChange={(e) => setValue(e.target.value)}
          required
          error={value === 'x'}
          helperText={value === 'x' ? 'Bad code' : ' '}
        />
      );
    }
    render(<Field />);
    const input = screen.getByRole('textbox', { name: 'Code' });
    expect(input.hasAttribute('required')).toBe(true);
    expect(input.getAttribute('aria-invalid')).toBeNull();
    await user.type(input, 'x');
    expect(input.getAttribute('aria-invalid')).toBe('true');
    expect(screen.getByRole('textbox', { name: 'Code', description: 'Bad code' })).toBe(input);
  });

  it('a busy button is disabled and shows a named progress indicator', () => {
    render(
      <Button variant="contained" busy>
        Send
      </Button>,
    );
    const button = screen.getByRole('button', { name: /Send/ });
    expect(button.hasAttribute('disabled')).toBe(true);
    expect(screen.getByRole('progressbar', { name: 'Loading' })).toBeTruthy();
  });
});
