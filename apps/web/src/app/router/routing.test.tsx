import { MantineProvider } from '@mantine/core';
import { act, cleanup, render, screen } from '@testing-library/react';
import { useEffect } from 'react';
import { MemoryRouter, type RouteObject, useNavigate } from 'react-router';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { RouteBoundary } from '#src/components/page/RouteBoundary';
import { initI18n } from '#src/i18n/i18n';
import { routeAt } from '#src/lib/routing/current-route';
import { ConsoleRoutes } from '../MainApp';

const events: string[] = [];
vi.mock('#src/lib/http/client', async (original) => ({
  ...(await original<object>()),
  cancelPending: (reason: string, page?: string) => events.push(`cancel: ${reason} (for ${page})`),
}));

let go: (path: string) => void = () => {};
function Navigator() {
  const navigate = useNavigate();
  go = (path) => {
    void navigate(path);
  };
  return null;
}

/** A screen that says when its effects start (where its requests would start). */
function Screen({ name }: { name: string }) {
  useEffect(() => {
    events.push(`${name} starts`);
  }, [name]);
  return <p>{name}</p>;
}

function Broken(): never {
  throw new Error('screen failed');
}

const routes: RouteObject[] = [
  { path: '/a', element: <Screen name="a" /> },
  { path: '/b', element: <Screen name="b" /> },
  {
    path: '/broken',
    element: (
      <RouteBoundary inPage>
        <Broken />
      </RouteBoundary>
    ),
  },
];

function renderAt(path: string) {
  return render(
    <MantineProvider env="test">
      <MemoryRouter initialEntries={[path]}>
        <Navigator />
        <ConsoleRoutes routes={routes} />
      </MemoryRouter>
    </MantineProvider>,
  );
}

beforeAll(async () => {
  await initI18n();
});
beforeEach(() => {
  events.length = 0;
});
afterEach(cleanup);

describe('the route the user is on (product §2 Route table)', () => {
  it('is the table route the router would draw, with its params', () => {
    expect(routeAt('/management/devices').name).toBe('management.devices');
    expect(routeAt('/notifications').name).toBe('notifications.main');
    expect(routeAt('/tag/7')).toEqual({ name: 'management.tag_chart', params: { id: '7' } });
  });

  it('is none for an address outside the table', () => {
    expect(routeAt('/no/such/page')).toEqual({ name: '', params: {} });
  });
});

describe('console routes', () => {
  it('cancels pending requests on a route change, before the new screen starts its own (product §7)', () => {
    renderAt('/a');
    expect(events).toEqual(['a starts']);
    act(() => go('/b'));
    expect(screen.getByText('b')).toBeTruthy();
    expect(events).toEqual(['a starts', 'cancel: Route changed (for /b)', 'b starts']);
  });

  it('a query change on the same page cancels nothing', () => {
    renderAt('/a');
    act(() => go('/a?page=2'));
    expect(events).toEqual(['a starts']);
  });

  it('a screen that fails shows the route error, and the next address draws afresh', () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    renderAt('/broken');
    expect(screen.getByTestId('route-error')).toBeTruthy();
    act(() => go('/a'));
    expect(screen.queryByTestId('route-error')).toBeNull();
    expect(screen.getByText('a')).toBeTruthy();
    vi.mocked(console.error).mockRestore();
  });
});
