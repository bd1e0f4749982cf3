import { PERMISSIONS } from '@fleetgate/shared/permissions';
import type { CurrentUser } from '@fleetgate/shared/schemas/auth';
import { type Brand, DEFAULT_BRAND } from '@fleetgate/shared/schemas/brand';
import type { WebNotification } from '@fleetgate/shared/schemas/notifications';
import { createTheme, MantineProvider, Popover } from '@mantine/core';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { act, cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { initI18n } from '#src/i18n/i18n';
import { SessionProvider } from '#src/lib/session/session-context';
import type { FakeSocket } from '#src/lib/socket/fake-socket';
import * as socketModule from '#src/lib/socket/socket';
import { NotificationsBell } from './NotificationsBell';

// The console's socket, replaced by a fake the test drives as the server would.
vi.mock('#src/lib/socket/socket', async () => {
  const { ChannelHub } = await import('#src/lib/socket/channel-hub');
  const { FakeSocket, asConsoleSocket } = await import('#src/lib/socket/fake-socket');
  const fakeSockets: InstanceType<typeof FakeSocket>[] = [];
  return {
    fakeSockets,
    channelHub: new ChannelHub({
      createSocket: () => {
        const socket = new FakeSocket();
        fakeSockets.push(socket);
        return asConsoleSocket(socket);
      },
      refreshSession: async () => false,
    }),
  };
});
const fakeSockets = (socketModule as unknown as { fakeSockets: FakeSocket[] }).fakeSockets;

const USER: CurrentUser = {
  id: 5,
  username: 'someone',
  email: 'someone@fleetgate.test',
  avatar_url: null,
  company: { id: 7, parent_id: 1, name: 'Acme', level: 2, show_payment: true },
  company_id: 7,
  company_name: 'Acme',
  role: { id: 2, name: 'admin', title: 'Administrator' },
  role_id: 2,
  role_title: 'Administrator',
  tos_accepted: true,
  mfa_type: null,
  exp: 0,
  permissions: [...PERMISSIONS],
  token: { actor: false, actor_user: null },
  impersonation_access_limit: null,
  isImpersonating: false,
  show_payment: true,
  show_payment_control: false,
  country_iso_code: null,
  session: null,
};

/** jsdom lays nothing out; floating-ui would otherwise hide the drop-down as detached. */
const theme = createTheme({
  components: { Popover: Popover.extend({ defaultProps: { hideDetached: false } }) },
});

const note = (id: number, extra: Partial<WebNotification> = {}): WebNotification => ({
  id,
  type: 'message',
  summary: `Notification ${id}`,
  data: null,
  created_at: '2025-03-01T10:00:00.000Z',
  seen_at: null,
  ...extra,
});

/** The server's state behind the stubbed fetch. */
let stored: WebNotification[];
let puts: number[][];
let failure: { status: number; errors: { code: string; message: string }[] } | null;

function renderBell(brand: Brand = DEFAULT_BRAND) {
  const router = createMemoryRouter(
    [
      { path: '/', element: <NotificationsBell /> },
      { path: '/notifications', element: <p>all notifications</p> },
    ],
    { initialEntries: ['/'] },
  );
  render(
    <MantineProvider theme={theme} env="test">
      <QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>
        <SessionProvider user={USER} brand={brand}>
          <RouterProvider router={router} />
        </SessionProvider>
      </QueryClientProvider>
    </MantineProvider>,
  );
  return router;
}

const badge = () => screen.getByTestId('notifications-badge');
const bell = () => screen.getByTestId('notifications-bell');

beforeAll(async () => {
  await initI18n();
});
beforeEach(() => {
  stored = [];
  puts = [];
  failure = null;
  vi.stubGlobal('fetch', async (url: string, init: RequestInit) => {
    if (url.startsWith('/api/notifications') && init.method === 'GET') {
      if (failure) return new Response(JSON.stringify({ success: false, errors: failure.errors }), failure);
      const unseen = stored.filter((n) => n.seen_at === null).length;
      return new Response(
        JSON.stringify({ success: true, data: stored, meta: { total: stored.length, unseen } }),
      );
    }
    if (url === '/api/notifications' && init.method === 'PUT') {
      const ids = (JSON.parse(String(init.body)) as { id: number[] }).id;
      puts.push(ids);
      stored = stored.map((n) => (ids.includes(n.id) ? { ...n, seen_at: '2025-03-01T11:00:00.000Z' } : n));
      return new Response(JSON.stringify({ success: true, data: { updated: ids.length } }));
    }
    return new Response('{}', { status: 404 });
  });
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

describe('NotificationsBell (product §2 Header widget 1, §4 Notification)', () => {
  it("shows 'No notifications' and no badge when there are none", async () => {
    renderBell();
    await waitFor(() => expect(badge().dataset.count).toBe('0'));
    fireEvent.click(bell());
    expect(await screen.findByText('No notifications')).toBeTruthy();
    expect(screen.getByText('Show all notifications')).toBeTruthy();
  });

  it('counts the unseen ones; closing the list marks the listed unseen seen, then reloads it', async () => {
    stored = [note(3), note(2), note(1, { seen_at: '2025-02-01T00:00:00.000Z' })];
    renderBell();
    await waitFor(() => expect(badge().dataset.count).toBe('2'));
    fireEvent.click(bell());
    expect(await screen.findByText('Notification 3')).toBeTruthy();
    expect(screen.getAllByTestId('notification-item').map((n) => n.dataset.unseen)).toEqual([
      'true',
      'true',
      undefined,
    ]);
    fireEvent.click(bell());
    await waitFor(() => expect(puts).toEqual([[3, 2]]));
    await waitFor(() => expect(badge().dataset.count).toBe('0'));
  });

  it('an outside click closes the list and marks them seen too', async () => {
    stored = [note(4)];
    renderBell();
    await waitFor(() => expect(badge().dataset.count).toBe('1'));
    fireEvent.click(bell());
    await screen.findByText('Notification 4');
    fireEvent.mouseDown(document.body);
    await waitFor(() => expect(puts).toEqual([[4]]));
  });

  it('a notification pushed over the socket is prepended and counted', async () => {
    stored = [note(1)];
    renderBell();
    await waitFor(() => expect(badge().dataset.count).toBe('1'));
    const socket = fakeSockets.at(-1)!;
    act(() => socket.open());
    expect(socket.subscriptions()).toContain('private-notifications.5');
    expect(bell().dataset.live).toBeUndefined();
    act(() => socket.acknowledgeSubscriptions());
    expect(bell().dataset.live).toBe('true');
    // Pushed while the list is open: it shows at the top without a reload (this fake server
    // never learns of it, so only the push can have put it there).
    fireEvent.click(bell());
    await screen.findByText('Notification 1');
    act(() => socket.receive('WebNotificationCreated', 'private-notifications.5', note(9)));
    await waitFor(() => expect(badge().dataset.count).toBe('2'));
    const items = await screen.findAllByText(/^Notification \d+$/);
    expect(items.map((item) => item.textContent)).toEqual(['Notification 9', 'Notification 1']);
    // Another channel's event is not ours.
    act(() => socket.receive('WebNotificationCreated', 'private-notifications.6', note(10)));
    await waitFor(() => expect(badge().dataset.count).toBe('2'));
    expect(screen.queryByText('Notification 10')).toBeNull();
  });

  it('a load failure shows the first error message', async () => {
    failure = { status: 500, errors: [{ code: 'INTERNAL_ERROR', message: 'Internal server error' }] };
    renderBell();
    fireEvent.click(bell());
    expect((await screen.findByTestId('notifications-error')).textContent).toBe('Internal server error');
  });

  it("a load failure without a message shows 'Failed to get notifications.'", async () => {
    failure = { status: 502, errors: [] };
    renderBell();
    fireEvent.click(bell());
    expect((await screen.findByTestId('notifications-error')).textContent).toBe(
      'Failed to get notifications.',
    );
  });

  it("'Show all notifications' goes to the notifications page", async () => {
    const router = renderBell();
    fireEvent.click(bell());
    fireEvent.click(await screen.findByText('Show all notifications'));
    await waitFor(() => expect(router.state.location.pathname).toBe('/notifications'));
  });

  it("creditAmountTooLow carries 'Get more resources' to the brand's buy link", async () => {
    stored = [note(2, { type: 'creditAmountTooLow', summary: 'Resources are low' }), note(1)];
    renderBell({ ...DEFAULT_BRAND, buy_link: 'https://shop.example/buy' });
    fireEvent.click(bell());
    await screen.findByText('Resources are low');
    const links = screen.getAllByTestId('notification-buy-link');
    expect(links).toHaveLength(1);
    expect(links[0]?.getAttribute('href')).toBe('https://shop.example/buy');
    expect(links[0]?.getAttribute('target')).toBe('_blank');
    expect(links[0]?.textContent).toContain('Get more resources');
  });
});
