import { fireEvent, render, screen } from '@testing-library/react';
import { QueryClient } from '@tanstack/react-query';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { CustomRoutes, memoryStore, useNotify } from 'react-admin';
import type { DataProvider } from 'react-admin';
import { MemoryRouter, Route } from 'react-router-dom';
import { getI18nextProvider, initI18n, loadAdminMessages } from '../i18n/i18n.ts';
import { LeanAdmin } from './LeanAdmin.tsx';

function Notifier() {
  const notify = useNotify();
  return (
    <button
      type="button"
      onClick={() => notify('ra.notification.updated', { messageArgs: { smart_count: 1 } })}
    >
      notify
    </button>
  );
}

function Broken(): never {
  throw new Error('Broken screen');
}

describe('LeanAdmin', { timeout: 30_000 }, () => {
  beforeAll(async () => {
    await initI18n('zh-CN');
    await loadAdminMessages();
  });

  it("shows react-admin's error page (a chunk of its own) when a screen fails", async () => {
    // React logs the error the boundary catches; this test expects it.
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    render(
      <MemoryRouter initialEntries={['/broken']}>
        <LeanAdmin
          authProvider={undefined}
          dataProvider={{} as DataProvider}
          i18nProvider={getI18nextProvider()}
          queryClient={new QueryClient()}
          store={memoryStore()}
          theme={{}}
          layout={({ children }) => <>{children}</>}
          catchAll={() => null}
        >
          <CustomRoutes noLayout>
            <Route path="/broken" element={<Broken />} />
          </CustomRoutes>
        </LeanAdmin>
      </MemoryRouter>,
    );
    expect(await screen.findByRole('alert', {}, { timeout: 10_000 })).toHaveProperty(
      'textContent',
      expect.stringContaining('出错了'),
    );
    expect(screen.getByText('客户端发生错误，请求未能完成。')).toBeTruthy();
    vi.restoreAllMocks();
  });

  it('shows the first notice with the snackbar it loads then, none before', async () => {
    render(
      <MemoryRouter initialEntries={['/notify']}>
        <LeanAdmin
          authProvider={undefined}
          dataProvider={{} as DataProvider}
          i18nProvider={getI18nextProvider()}
          queryClient={new QueryClient()}
          store={memoryStore()}
          theme={{}}
          layout={({ children }) => <>{children}</>}
          catchAll={() => null}
        >
          <CustomRoutes noLayout>
            <Route path="/notify" element={<Notifier />} />
          </CustomRoutes>
        </LeanAdmin>
      </MemoryRouter>,
    );
    const button = await screen.findByRole('button', { name: 'notify' }, { timeout: 10_000 });
    // No snackbar until a notice is queued.
    expect(document.querySelector('.RaNotification-root, .MuiSnackbar-root')).toBeNull();
    fireEvent.click(button);
    const notice = await screen.findByText(/已更新/, {}, { timeout: 10_000 });
    expect(notice.closest('.MuiSnackbar-root')).not.toBeNull();
  });
});
