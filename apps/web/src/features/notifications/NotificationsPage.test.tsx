import { PERMISSIONS } from '@fleetgate/shared/permissions';
import { routeChain } from '@fleetgate/shared/routes';
import type { CurrentUser } from '@fleetgate/shared/schemas/auth';
import { DEFAULT_BRAND } from '@fleetgate/shared/schemas/brand';
import type { WebNotification } from '@fleetgate/shared/schemas/notifications';
import { MantineProvider } from '@mantine/core';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { HelpProvider } from '#src/components/page/help-context';
import { initI18n } from '#src/i18n/i18n';
import { SessionProvider } from '#src/lib/session/session-context';
import { NotificationsPage, PAGE_SIZE } from './NotificationsPage';

vi.mock('#src/lib/socket/socket', async () => {
  const { ChannelHub } = await import('#src/lib/socket/channel-hub');
  const { FakeSocket, asConsoleSocket } = await import('#src/lib/socket/fake-socket');
  return {
    channelHub: new ChannelHub({
      createSocket: () => asConsoleSocket(new FakeSocket()),
      refreshSession: async () => false,
    }),
  };
});

const USER = {
  id: 5,
  email: 'someone@fleetgate.test',
  permissions: [...PERMISSIONS],
  show_payment: false,
} as unknown as CurrentUser;

const note = (id: number, seen = false): WebNotification => ({
  id,
  type: 'message',
  summary: `Notification ${id}`,
  data: null,
  created_at: '2025-03-01T10:00:00.000Z',
  seen_at: seen ? '2025-03-02T10:00:00.000Z' : null,
});

let total: number;
let rows: WebNotification[];
let requested: string[];
let puts: number[][];

function renderPage(path = '/notifications') {
  const chain = routeChain('notifications.main');
  const router = createMemoryRouter(
    [
      {
        path: '/notifications',
        element: <NotificationsPage route={chain.at(-1)!} chain={chain} params={{}} />,
      },
    ],
    { initialEntries: [path] },
  );
  render(
    <MantineProvider env="test">
      <QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>
        <SessionProvider user={USER} brand={DEFAULT_BRAND}>
          <HelpProvider>
            <RouterProvider router={router} />
          </HelpProvider>
        </SessionProvider>
      </QueryClientProvider>
    </MantineProvider>,
  );
  return router;
}

beforeAll(async () => {
  await initI18n();
});
beforeEach(() => {
  total = 0;
  rows = [];
  requested = [];
  puts = [];
  vi.stubGlobal('fetch', async (url: string, init: RequestInit) => {
    requested.push(`${init.method} ${url}`);
    if (init.method === 'PUT') {
      const ids = (JSON.parse(String(init.body)) as { id: number[] }).id;
      puts.push(ids);
      rows = rows.map((n) => (ids.includes(n.id) ? { ...n, seen_at: '2025-03-03T10:00:00.000Z' } : n));
      return new Response(JSON.stringify({ success: true, data: { updated: ids.length } }));
    }
    const unseen = rows.filter((n) => !n.seen_at).length;
    return new Response(JSON.stringify({ success: true, data: rows, meta: { total, unseen } }));
  });
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

describe('notifications page (route notifications.main)', () => {
  it("shows 'No notifications' when there are none", async () => {
    renderPage();
    expect(await screen.findByTestId('notifications-page-empty')).toBeTruthy();
  });

  it('lists the page with seen and unseen state, and marks the page’s unseen ones seen', async () => {
    rows = [note(3), note(2, true), note(1)];
    total = 3;
    renderPage();
    await screen.findByText('Notification 3');
    expect(screen.getByTestId('notifications-page-counts').textContent).toBe('3 notifications, 2 unseen');
    expect(screen.getAllByTestId('notification-row').map((r) => r.dataset.unseen)).toEqual([
      'true',
      undefined,
      'true',
    ]);
    fireEvent.click(screen.getByTestId('notifications-mark-page'));
    await waitFor(() => expect(puts).toEqual([[3, 1]]));
    await waitFor(() =>
      expect(screen.getByTestId('notifications-page-counts').textContent).toBe('3 notifications, 0 unseen'),
    );
  });

  it('pages by limit and offset from the ?page parameter', async () => {
    rows = [note(1)];
    total = PAGE_SIZE + 1;
    renderPage('/notifications?page=2');
    await screen.findByText('Notification 1');
    expect(requested).toContain(`GET /api/notifications?limit=${PAGE_SIZE}&offset=${PAGE_SIZE}`);
    expect(screen.getByRole('button', { name: '2' }).getAttribute('data-active')).toBe('true');
  });
});
