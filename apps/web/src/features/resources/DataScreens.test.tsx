import type { Permission } from '@fleetgate/shared/permissions';
import { GB } from '@fleetgate/shared/resources';
import type { RoleName } from '@fleetgate/shared/roles';
import { type RouteName, routeChain } from '@fleetgate/shared/routes';
import type { CurrentUser } from '@fleetgate/shared/schemas/auth';
import { DEFAULT_BRAND } from '@fleetgate/shared/schemas/brand';
import { MantineProvider } from '@mantine/core';
import { Notifications } from '@mantine/notifications';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import i18next from 'i18next';
import type { ReactElement } from 'react';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { HelpProvider } from '#src/components/page/help-context';
import { PageFrame } from '#src/components/page/PageFrame';
import { initI18n } from '#src/i18n/i18n';
import { WindowsProvider } from '#src/lib/dialogs/WindowsProvider';
import { windowsStore } from '#src/lib/dialogs/windows-store';
import { clearResponseCache } from '#src/lib/http/client';
import type { PageProps } from '#src/lib/routing/page';
import { SessionProvider } from '#src/lib/session/session-context';
import { testUser } from '#src/test/users';
import type { DataOverviewJson, DataUsageJson } from './api/data-usage';
import { CompanyDataHistoryTab } from './components/CompanyDataHistoryTab';
import { CompanyResourcesTab } from './components/CompanyResourcesTab';
import { DataHistoryPage, DataOverviewPage } from './DataPages';

/**
 * The company data screens (product §2 services.data-history, services.data-overview,
 * company.data-history, company.resources.data-history) against a stubbed server: usage rows
 * exist only once remote access or VPN spend data, so these tests bring their own.
 */

const userOf = (role: RoleName, permissions?: readonly Permission[]) => testUser(role, { permissions });

const usage = (over: Partial<DataUsageJson>): DataUsageJson => ({
  day: '2025-03-02',
  company_id: 2,
  company_name: 'Acme',
  device_id: 7,
  device_name: 'Harbour gateway',
  purpose: 'remote_access',
  bytes: GB,
  unpaid_bytes: 0,
  ...over,
});

/** A day `days` from today, as the server writes days (UTC). */
const dayFromNow = (days: number) => new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10);

const overview = (over: Partial<DataOverviewJson>): DataOverviewJson => ({
  company_id: 2,
  company_name: 'Acme',
  remaining_data: 4 * GB,
  spent_30_days: GB,
  daily_average: Math.round(GB / 30),
  runs_out_on: dayFromNow(120),
  ...over,
});

type Call = { method: string; url: string };
let calls: Call[];
let routes: Record<string, (call: Call) => unknown>;

beforeAll(async () => {
  await initI18n();
  // The feature's texts come with its screens (its manifest's loaders); here, at once.
  await i18next.loadNamespaces('resources');
  if (!('fonts' in document))
    Object.defineProperty(document, 'fonts', {
      configurable: true,
      value: { addEventListener() {}, removeEventListener() {} },
    });
});
beforeEach(() => {
  calls = [];
  routes = {};
  vi.stubGlobal('fetch', async (url: string, init: RequestInit) => {
    const call = { method: init.method ?? 'GET', url: decodeURIComponent(url) };
    calls.push(call);
    const handler = routes[`${call.method} ${new URL(url, 'http://x').pathname}`];
    const data = handler ? handler(call) : [];
    return new Response(
      JSON.stringify({
        success: true,
        data,
        ...(Array.isArray(data) ? { meta: { total: data.length } } : {}),
      }),
    );
  });
});
afterEach(() => {
  cleanup();
  windowsStore.reset();
  clearResponseCache();
  vi.unstubAllGlobals();
});

function renderScreen(
  user: CurrentUser,
  name: RouteName,
  screenOf: (props: PageProps) => ReactElement,
  at = '/',
) {
  const chain = routeChain(name);
  const props = { route: chain.at(-1)!, chain, params: {} };
  const router = createMemoryRouter([{ path: '*', element: screenOf(props) }], { initialEntries: [at] });
  render(
    <MantineProvider env="test">
      <Notifications />
      <QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>
        <SessionProvider user={user} brand={DEFAULT_BRAND}>
          <HelpProvider>
            <WindowsProvider>
              <RouterProvider router={router} />
            </WindowsProvider>
          </HelpProvider>
        </SessionProvider>
      </QueryClientProvider>
    </MantineProvider>,
  );
  return router;
}

const gets = (path: string) =>
  calls.filter((c) => c.method === 'GET' && c.url.startsWith(path)).map((c) => c.url);
const lastGet = (path: string) => gets(path).at(-1);

describe('services.data-history (product §2)', () => {
  it('shows each day in words: the device linked, the purpose, the data and its unpaid part with why', async () => {
    routes['GET /api/credits/data-history'] = () => [
      usage({ purpose: 'vpn', bytes: 3 * GB, unpaid_bytes: GB / 2 }),
      usage({ device_id: null, device_name: null, bytes: 200 * 1024 ** 2 }),
      usage({
        day: '2025-03-01',
        company_id: 3,
        company_name: 'Acme North',
        device_id: 8,
        device_name: null,
      }),
    ];
    renderScreen(userOf('super_admin'), 'services.data-history', (p) => <DataHistoryPage {...p} />);
    const rows = await screen.findAllByTestId('data-usage-row');
    expect(rows.map((r) => within(r).getByTestId('data-purpose').textContent)).toEqual([
      'VPN',
      'Remote access',
      'Remote access',
    ]);
    expect(rows.map((r) => within(r).getByTestId('data-bytes').textContent)).toEqual([
      '3 GB',
      '200 MB',
      '1 GB',
    ]);
    expect(rows[0]!.textContent).toContain('2025-03-02');
    expect(within(rows[0]!).getByRole('link', { name: 'Harbour gateway' }).getAttribute('href')).toBe(
      '/devices/7',
    );
    expect(within(rows[0]!).getByRole('link', { name: 'Acme' }).getAttribute('href')).toBe('/companies/2');
    expect(within(rows[1]!).getByText('No device')).toBeTruthy();
    // A device whose name is gone is named by its id.
    expect(within(rows[2]!).getByRole('link', { name: 'Device #8' }).getAttribute('href')).toBe('/devices/8');

    const unpaid = within(rows[0]!).getByTestId('data-unpaid');
    expect(unpaid.textContent).toBe('512 MB unpaid');
    expect(rows.map((r) => r.getAttribute('data-unpaid'))).toEqual(['yes', 'no', 'no']);
    fireEvent.focus(unpaid);
    expect(await screen.findByText("Relayed after the company's data ran out")).toBeTruthy();

    expect(screen.getByTestId('data-usage-page-total').textContent).toBe(
      'Total on this page: 4.2 GB, of which 512 MB unpaid',
    );
    expect(lastGet('/api/credits/data-history')).toBe('/api/credits/data-history?limit=25&offset=0');
    expect(screen.getByTestId('data-overview-open').getAttribute('href')).toBe('/resources/data-overview');
  });

  it('sends the period as days and the company from the address, and says when none match', async () => {
    renderScreen(
      userOf('admin'),
      'services.data-history',
      (p) => <DataHistoryPage {...p} />,
      '/resources/data-history?company=3',
    );
    await screen.findByTestId('data-usage-empty');
    expect(screen.getByTestId('data-usage-empty').textContent).toBe('No data use matches the filters');
    expect(lastGet('/api/credits/data-history')).toBe(
      '/api/credits/data-history?limit=25&offset=0&company_id=3',
    );
    fireEvent.change(screen.getByTestId('data-usage-from'), { target: { value: '2025-03-01' } });
    fireEvent.change(screen.getByTestId('data-usage-to'), { target: { value: '2025-03-31' } });
    await waitFor(() =>
      expect(lastGet('/api/credits/data-history')).toBe(
        '/api/credits/data-history?limit=25&offset=0&company_id=3&from=2025-03-01&to=2025-03-31',
      ),
    );
    // The company selector is the companies of the caller's reach (product §7 selector lists).
    expect(lastGet('/api/companies')).toContain('limit=100');
  });

  it('says the last day may not come before the first, and shows the empty history in words', async () => {
    renderScreen(
      userOf('admin'),
      'services.data-history',
      (p) => <DataHistoryPage {...p} />,
      '/resources/data-history?from=2025-03-10&to=2025-03-01',
    );
    await screen.findByText('The last day must not be before the first');
    cleanup();
    renderScreen(userOf('admin'), 'services.data-history', (p) => <DataHistoryPage {...p} />);
    expect((await screen.findByTestId('data-usage-empty')).textContent).toContain(
      'No data has been spent yet',
    );
    expect(screen.queryByTestId('data-usage-page-total')).toBeNull();
  });

  it('offers no company filter to a role that may not list companies, and no device link without view_devices', async () => {
    routes['GET /api/credits/data-history'] = () => [usage({})];
    renderScreen(userOf('admin', ['view_company_data_history']), 'services.data-history', (p) => (
      <DataHistoryPage {...p} />
    ));
    const row = await screen.findByTestId('data-usage-row');
    expect(screen.queryByTestId('data-usage-company')).toBeNull();
    expect(within(row).queryByRole('link')).toBeNull();
    expect(row.textContent).toContain('Harbour gateway');
    expect(gets('/api/companies')).toEqual([]);
  });
});

describe('services.data-overview (product §2)', () => {
  it('shows remaining data, 30 days, the daily average, and the day it runs out: red within a week, a dash without spending', async () => {
    routes['GET /api/credits/data-overview'] = () => [
      overview({}),
      overview({
        company_id: 3,
        company_name: 'Acme North',
        remaining_data: GB / 2,
        spent_30_days: 6 * GB,
        daily_average: Math.round((6 * GB) / 30),
        runs_out_on: dayFromNow(2),
      }),
      overview({
        company_id: 4,
        company_name: 'Beta',
        remaining_data: 5 * GB,
        spent_30_days: 0,
        daily_average: 0,
        runs_out_on: null,
      }),
    ];
    renderScreen(userOf('super_admin'), 'services.data-overview', (p) => <DataOverviewPage {...p} />);
    const rows = await screen.findAllByTestId('data-overview-row');
    expect(rows.map((r) => r.getAttribute('data-company'))).toEqual(['Acme', 'Acme North', 'Beta']);
    expect(rows.map((r) => within(r).getByTestId('data-remaining').textContent)).toEqual([
      '4 GB',
      '512 MB',
      '5 GB',
    ]);
    expect(rows.map((r) => within(r).getByTestId('data-daily').textContent)).toEqual([
      '34.1 MB',
      '204.8 MB',
      '0 MB',
    ]);
    const runsOut = rows.map((r) => within(r).getByTestId('data-runs-out'));
    expect(runsOut.map((cell) => cell.textContent)).toEqual([dayFromNow(120), dayFromNow(2), '—']);
    expect(runsOut.map((cell) => cell.getAttribute('data-soon'))).toEqual(['no', 'yes', null]);
    // What a company spent opens its days in the data history.
    const spent = within(rows[1]!).getByRole('link', { name: /^6 GB spent by Acme North/ });
    expect(spent.getAttribute('href')).toBe('/resources/data-history?company=3');
    expect(within(rows[2]!).queryByRole('link', { name: /spent by/ })).toBeNull();
    expect(lastGet('/api/credits/data-overview')).toBe('/api/credits/data-overview?limit=25&offset=0');
    expect(screen.getByTestId('data-history-open').getAttribute('href')).toBe('/resources/data-history');
  });
});

describe('the resources tabs (product §2 administration.resources: codes, credits, data-history)', () => {
  const tabsFor = (user: CurrentUser) => {
    renderScreen(user, 'services.credit-history', (p) => <PageFrame {...p} />);
    return screen.queryAllByRole('tab').map((tab) => tab.textContent);
  };

  it('show Data history to holders of view_company_data_history, and not to others', () => {
    expect(tabsFor(userOf('super_admin'))).toEqual(['Codes', 'Credits', 'Data history']);
    cleanup();
    expect(tabsFor(userOf('admin', ['view_credits', 'view_credit_transfer_codes']))).toEqual([
      'Codes',
      'Credits',
    ]);
    cleanup();
    // One tab left is no strip at all.
    expect(tabsFor(userOf('end_user'))).toEqual([]);
  });
});

describe("a company's data (product §2 company.data-history, company.resources.data-history)", () => {
  const company = { id: 9, name: 'Acme North', level: 2, payment_type: 'paid' as const };
  beforeEach(() => {
    routes['GET /api/companies/9/resources'] = () => ({
      company_id: 9,
      credits_left: 12,
      packs_left: 0,
      remaining_data: 5 * GB,
      per_type: [],
    });
  });

  it('the resources tab lists the data the company was given, then the data it spent, both kept to it', async () => {
    routes['GET /api/credits/data-history'] = () => [usage({ company_id: 9, company_name: 'Acme North' })];
    renderScreen(userOf('admin'), 'company.resources.data-history', () => (
      <CompanyResourcesTab tab="company.resources.data-history" company={company} />
    ));
    const used = await screen.findByTestId('data-used');
    expect(within(used).getByRole('heading', { name: 'Data used' })).toBeTruthy();
    await within(used).findByTestId('data-usage-row');
    expect(within(screen.getByTestId('data-given')).getByRole('heading').textContent).toBe(
      'Data bought and trial',
    );
    // The company is fixed: no company column, no company filter.
    expect(within(used).queryByRole('columnheader', { name: 'Company' })).toBeNull();
    expect(screen.queryByTestId('data-usage-company')).toBeNull();
    await waitFor(() =>
      expect(lastGet('/api/credits?')).toBe(
        '/api/credits?sort=-created_at&limit=25&offset=0&company_id=9&action=buy_data,trial_data',
      ),
    );
    expect(lastGet('/api/credits/data-history')).toBe(
      '/api/credits/data-history?limit=25&offset=0&company_id=9',
    );
  });

  it('the resources tab shows only the ledger to a role without the data history', async () => {
    renderScreen(userOf('end_user'), 'company.resources.data-history', () => (
      <CompanyResourcesTab tab="company.resources.data-history" company={company} />
    ));
    await screen.findByTestId('data-given');
    expect(screen.queryByTestId('data-used')).toBeNull();
    expect(gets('/api/credits/data-history')).toEqual([]);
  });

  it("the company's data history tab is the same table, or a note for a role that may not view it", async () => {
    routes['GET /api/credits/data-history'] = () => [usage({ company_id: 9, company_name: 'Acme North' })];
    renderScreen(userOf('readonly_admin'), 'company.data-history', () => (
      <CompanyDataHistoryTab company={company} />
    ));
    const row = await screen.findByTestId('data-usage-row');
    expect(row.textContent).not.toContain('Acme North');
    expect(lastGet('/api/credits/data-history')).toBe(
      '/api/credits/data-history?limit=25&offset=0&company_id=9',
    );
    cleanup();
    renderScreen(userOf('admin', ['view_companies']), 'company.data-history', () => (
      <CompanyDataHistoryTab company={company} />
    ));
    expect(screen.getByTestId('resources-not-allowed')).toBeTruthy();
  });
});
