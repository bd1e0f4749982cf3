import { PERMISSIONS } from '@fleetgate/shared/permissions';
import { routeChain } from '@fleetgate/shared/routes';
import type { CurrentUser } from '@fleetgate/shared/schemas/auth';
import { DEFAULT_BRAND } from '@fleetgate/shared/schemas/brand';
import type { TagJson } from '@fleetgate/shared/schemas/tags';
import { MantineProvider } from '@mantine/core';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import i18next from 'i18next';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { HelpProvider } from '#src/components/page/help-context';
import { initI18n } from '#src/i18n/i18n';
import { SessionProvider } from '#src/lib/session/session-context';
import type { TagChartJson } from './api/tags';
import { TagChartPage } from './TagChartPage';
import { TagsPage } from './TagsPage';

const HOSTILE = '<script>window.hacked = true</script><img src=x onerror="window.hacked = true">';

const tag = (id: number, over: Partial<TagJson> = {}): TagJson => ({
  id,
  company_id: 2,
  company_name: 'Acme',
  name: `Tag ${id}`,
  description: '',
  color: '#228be6',
  devices_count: id,
  created_at: '2025-03-01T10:00:00.000Z',
  updated_at: '2025-03-01T10:00:00.000Z',
  ...over,
});

const USER = { id: 5, company_id: 2, permissions: [...PERMISSIONS] } as unknown as CurrentUser;
let requested: string[];
let rows: TagJson[];
let chart: TagChartJson;

function renderAt(path: string) {
  const list = routeChain('tags.main');
  const chartChain = routeChain('management.tag_chart');
  const router = createMemoryRouter(
    [
      { path: '/tags', element: <TagsPage route={list.at(-1)!} chain={list} params={{}} /> },
      {
        path: '/tag/:id',
        element: <TagChartPage route={chartChain.at(-1)!} chain={chartChain} params={{ id: '7' }} />,
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
}

beforeAll(async () => {
  await initI18n();
  // The feature's texts come with its screens (its manifest's loaders); here, at once.
  await i18next.loadNamespaces('tags');
});
beforeEach(() => {
  requested = [];
  rows = [];
  vi.stubGlobal('fetch', async (url: string, init: RequestInit) => {
    requested.push(`${init.method} ${decodeURIComponent(url)}`);
    if (url.startsWith('/api/tags/7/chart'))
      return new Response(JSON.stringify({ success: true, data: chart }));
    return new Response(JSON.stringify({ success: true, data: rows, meta: { total: rows.length } }));
  });
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

describe('tags.main (product §2)', () => {
  it('shows names and descriptions as text: markup in a description never becomes elements', async () => {
    rows = [tag(1, { description: HOSTILE })];
    renderAt('/tags');
    const description = await screen.findByTestId('tag-description');
    expect(description.textContent).toBe(HOSTILE);
    expect(description.querySelector('script, img')).toBeNull();
    expect(document.querySelector('img[src="x"]')).toBeNull();
    expect((window as { hacked?: boolean }).hacked).toBeUndefined();
  });

  it('asks the server for the search of the URL (the global search’s View in table) and sorts by header', async () => {
    rows = [tag(1), tag(2)];
    renderAt('/tags?q=ware');
    await screen.findAllByTestId('tag-row');
    expect(requested).toContain('GET /api/tags?q=ware&sort=name&limit=25&offset=0');
    expect((screen.getByTestId('tags-search') as HTMLInputElement).value).toBe('ware');
    fireEvent.click(screen.getByTestId('sort-devices_count'));
    await waitFor(() =>
      expect(requested).toContain('GET /api/tags?q=ware&sort=devices_count&limit=25&offset=0'),
    );
  });
});

describe('management.tag_chart (product §2, §4)', () => {
  it('draws a bar per status bucket and per model with the counts', async () => {
    chart = {
      tag: tag(7, { name: 'Warehouse', devices_count: 5 }),
      total: 5,
      by_status: [
        { status: 'offline', count: 1 },
        { status: 'online', count: 3 },
        { status: 'pending', count: 0 },
        { status: 'not_activated', count: 1 },
      ],
      by_model: [
        { model: 'RUTX11', count: 4 },
        { model: null, count: 1 },
      ],
    };
    renderAt('/tag/7');
    await screen.findByTestId('chart-status');
    const value = (testId: string) =>
      [...screen.getByTestId(testId).querySelectorAll<SVGGElement>('[data-testid="chart-bar"]')].map((g) => [
        g.dataset.key,
        Number(g.dataset.value),
      ]);
    expect(value('chart-status')).toEqual([
      ['offline', 1],
      ['online', 3],
      ['pending', 0],
      ['not_activated', 1],
    ]);
    expect(value('chart-model')).toEqual([
      ['RUTX11', 4],
      ['', 1],
    ]);
    expect(screen.getByTestId('tag-chart-total').textContent).toBe('5');
    // Once drawn, once in the table for screen readers.
    expect(screen.getAllByText('Unknown model')).toHaveLength(2);
  });
});
