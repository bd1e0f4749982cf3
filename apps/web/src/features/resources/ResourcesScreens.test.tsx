import type { BrandSettings } from '@fleetgate/shared/brand';
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
import { initI18n } from '#src/i18n/i18n';
import { WindowsProvider } from '#src/lib/dialogs/WindowsProvider';
import { windowsStore } from '#src/lib/dialogs/windows-store';
import { clearResponseCache } from '#src/lib/http/client';
import type { PageProps } from '#src/lib/routing/page';
import { SessionProvider } from '#src/lib/session/session-context';
import { testUser } from '#src/test/users';
import type { MovementJson, TransferCodeJson } from './api/resources';
import { CreditCodesPage } from './CreditCodesPage';
import { CreditHistoryPage } from './CreditHistoryPage';
import { CompanyResourcesTab } from './components/CompanyResourcesTab';
import { RedeemCodePage } from './RedeemCodePage';

const userOf = (role: RoleName) => testUser(role);

const movement = (id: number, over: Partial<MovementJson>): MovementJson => ({
  id,
  action: 'move',
  credit_type: 2,
  credit_type_name: 'Paid credits',
  amount: 10,
  data_bytes: null,
  target_device_id: null,
  source_company_id: 2,
  source_company_name: 'Acme',
  target_company_id: 3,
  target_company_name: 'Acme North',
  credit_price: null,
  pro_form_nr: null,
  comment: null,
  code_id: null,
  device_id: null,
  user_email: 'admin@fleetgate.test',
  created_at: '2025-03-01T10:00:00.000Z',
  ...over,
});

const code = (id: number, over: Partial<TransferCodeJson>): TransferCodeJson => ({
  id,
  code: `AAAA-BBBB-CCCC-000${id}`,
  company_id: 2,
  company_name: 'Acme',
  credit_type: 2,
  credit_type_name: 'Credits',
  amount: 5,
  comment: '',
  used: false,
  used_at: null,
  cancelled: false,
  created_by: 'admin@fleetgate.test',
  created_at: '2025-03-01T10:00:00.000Z',
  ...over,
});

type Call = { method: string; url: string; body: unknown };
let calls: Call[];
let routes: Record<string, (call: Call) => unknown>;

function ok(data: unknown, meta?: Record<string, unknown>) {
  return new Response(JSON.stringify({ success: true, data, ...(meta ? { meta } : {}) }));
}

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
    const call = {
      method: init.method ?? 'GET',
      url: decodeURIComponent(url),
      body: init.body ? JSON.parse(String(init.body)) : undefined,
    };
    calls.push(call);
    const path = `${call.method} ${new URL(url, 'http://x').pathname}`;
    const handler = routes[path];
    const data = handler ? handler(call) : [];
    if (data instanceof Response) return data;
    return ok(data, Array.isArray(data) ? { total: data.length } : undefined);
  });
});
afterEach(() => {
  cleanup();
  windowsStore.reset();
  clearResponseCache();
  vi.unstubAllGlobals();
});

function renderScreen(
  role: RoleName,
  name: RouteName,
  screenOf: (props: PageProps) => ReactElement,
  session: { user?: CurrentUser; brand?: BrandSettings } = {},
) {
  const chain = routeChain(name);
  const props = { route: chain.at(-1)!, chain, params: {} };
  const router = createMemoryRouter([{ path: '*', element: screenOf(props) }], { initialEntries: ['/'] });
  render(
    <MantineProvider env="test">
      <Notifications />
      <QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>
        <SessionProvider user={session.user ?? userOf(role)} brand={session.brand ?? DEFAULT_BRAND}>
          <HelpProvider>
            <WindowsProvider>
              <RouterProvider router={router} />
            </WindowsProvider>
          </HelpProvider>
        </SessionProvider>
      </QueryClientProvider>
    </MantineProvider>,
  );
}

const lastGet = (path: string) =>
  calls.filter((c) => c.method === 'GET' && c.url.startsWith(path)).at(-1)?.url;

describe('services.credit-history (product §2)', () => {
  it('shows each movement in human words, data in GB, and no name for the issuer or another tenant', async () => {
    routes['GET /api/credits'] = () => [
      movement(1, {
        action: 'pool',
        source_company_id: null,
        source_company_name: null,
        target_company_id: 2,
        target_company_name: 'Acme',
        credit_price: '12.50',
        pro_form_nr: 'PF-7',
      }),
      movement(2, { action: 'code_redeem', source_company_name: null, source_company_id: 9 }),
      movement(3, {
        action: 'trial_data',
        credit_type: null,
        credit_type_name: null,
        amount: 5 * GB,
        data_bytes: 5 * GB,
        source_company_id: null,
        source_company_name: null,
      }),
    ];
    renderScreen('super_admin', 'services.credit-history', (p) => <CreditHistoryPage {...p} />);
    const rows = await screen.findAllByTestId('movement-row');
    expect(rows.map((r) => within(r).getByTestId('movement-action').textContent)).toEqual([
      'Resources added',
      'Code redeemed',
      'Trial data',
    ]);
    expect(rows[0]!.textContent).toContain('12.50');
    expect(rows[0]!.textContent).toContain('PF-7');
    expect(within(rows[0]!).getAllByText('—').length).toBeGreaterThan(0);
    expect(within(rows[1]!).getByText('Another company')).toBeTruthy();
    expect(within(rows[2]!).getByTestId('movement-amount').textContent).toBe('5 GB');
    expect(lastGet('/api/credits?')).toBe('/api/credits?sort=-created_at&limit=25&offset=0');
    // The super admin adds resources; every holder of manage_credits moves them.
    expect(screen.getByTestId('resources-add')).toBeTruthy();
    expect(screen.getByTestId('resources-move')).toBeTruthy();
    expect(screen.getByTestId('credit-report-open')).toBeTruthy();
  });

  it('asks the server for a period whose last day counts whole', async () => {
    renderScreen('admin', 'services.credit-history', (p) => <CreditHistoryPage {...p} />);
    await screen.findByTestId('credit-history-empty');
    fireEvent.change(screen.getByTestId('credit-history-to'), { target: { value: '2025-03-31' } });
    await waitFor(() => expect(lastGet('/api/credits?')).toMatch(/&to=2025-0[34]-\d\dT\d\d:00:00.000Z$/));
  });

  it('offers an admin no Add resources, and a client only the report', async () => {
    renderScreen('admin', 'services.credit-history', (p) => <CreditHistoryPage {...p} />);
    await screen.findByTestId('credit-history-empty');
    expect(screen.queryByTestId('resources-add')).toBeNull();
    expect(screen.getByTestId('resources-move')).toBeTruthy();
    cleanup();
    renderScreen('end_user', 'services.credit-history', (p) => <CreditHistoryPage {...p} />);
    await screen.findByTestId('credit-history-empty');
    expect(screen.queryByTestId('resources-move')).toBeNull();
    expect(screen.getByTestId('credit-report-open')).toBeTruthy();
  });
});

describe('services.credit-codes (product §2, §4 Used / Not Used)', () => {
  it('says Used, Not Used or Cancelled, and cancels only an unused code, after asking', async () => {
    routes['GET /api/credits/codes'] = () => [
      code(1, {}),
      code(2, { used: true, used_at: '2025-03-02T10:00:00.000Z' }),
      code(3, { cancelled: true }),
    ];
    routes['DELETE /api/credits/codes/1'] = () => code(1, { cancelled: true });
    renderScreen('admin', 'services.credit-codes', (p) => <CreditCodesPage {...p} />);
    const rows = await screen.findAllByTestId('code-row');
    expect(rows.map((r) => within(r).getByTestId('code-status').textContent)).toEqual([
      'Not Used',
      'Used',
      'Cancelled',
    ]);
    expect(rows.map((r) => within(r).queryByTestId('code-cancel') !== null)).toEqual([true, false, false]);
    expect(within(rows[0]!).getByTestId('code-value').textContent).toBe('AAAA-BBBB-CCCC-0001');
    expect(within(rows[0]!).getByRole('button', { name: 'Copy code' })).toBeTruthy();

    fireEvent.click(within(rows[0]!).getByTestId('code-cancel'));
    const question = await screen.findByTestId('confirm-message');
    expect(question.textContent).toContain('AAAA-BBBB-CCCC-0001');
    const confirmWindow = question.closest('[role="dialog"]') as HTMLElement;
    expect(within(confirmWindow).getByRole('button', { name: 'Keep code' })).toBeTruthy();
    fireEvent.click(within(confirmWindow).getByRole('button', { name: 'Cancel code' }));
    await screen.findByText('Code cancelled successfully');
    expect(calls.some((c) => c.method === 'DELETE' && c.url === '/api/credits/codes/1')).toBe(true);
  });

  it('creates a code and shows it with a copy button until the window is closed', async () => {
    routes['GET /api/credits/types'] = () => [{ id: 2, name: 'Credits', payment_type: 'paid' }];
    routes['POST /api/credits/codes'] = (call) => code(7, { ...(call.body as object), comment: 'For Beta' });
    renderScreen('admin', 'services.credit-codes', (p) => <CreditCodesPage {...p} />);
    fireEvent.click(await screen.findByTestId('code-create'));
    const form = await screen.findByTestId('form-newCode');
    // Only the super admin names the company the code comes from (product §6).
    expect(within(form).queryByText('From company')).toBeNull();
    fireEvent.change(within(form).getByRole('textbox', { name: /Amount/ }), { target: { value: '5' } });
    fireEvent.change(within(form).getByRole('textbox', { name: /Comment/ }), {
      target: { value: 'For Beta' },
    });
    fireEvent.click(within(form).getByRole('button', { name: 'Create code' }));
    expect((await screen.findByTestId('created-code-value')).textContent).toBe('AAAA-BBBB-CCCC-0007');
    await screen.findByText('Code created successfully');
    expect(calls.find((c) => c.method === 'POST')?.body).toEqual({
      credit_type_name: 'Credits',
      amount: 5,
      comment: 'For Beta',
    });
    expect(screen.getByTestId('created-code-copy')).toBeTruthy();
    fireEvent.click(screen.getByTestId('created-code-done'));
    await waitFor(() => expect(screen.queryByTestId('created-code')).toBeNull());
  });
});

describe('service.add-credits (product §3 activateCode)', () => {
  it('activates a code, says what the company received and is ready for the next one', async () => {
    routes['POST /api/credits/codes/activate'] = () => ({
      company_id: 2,
      credit_type: 2,
      credit_type_name: 'Credits',
      amount: 5,
    });
    renderScreen('end_user', 'service.add-credits', (p) => <RedeemCodePage {...p} />);
    const field = await screen.findByRole('textbox', { name: /Code/ });
    fireEvent.change(field, { target: { value: ' AAAA-BBBB-CCCC-0001 ' } });
    fireEvent.click(screen.getByRole('button', { name: 'Activate code' }));
    await screen.findByText('Code activated successfully');
    expect((await screen.findByTestId('redeemed')).textContent).toContain(
      'Your company received 5 × Credits.',
    );
    expect(calls.find((c) => c.method === 'POST')?.body).toEqual({ code: 'AAAA-BBBB-CCCC-0001' });
    expect((screen.getByRole('textbox', { name: /Code/ }) as HTMLInputElement).value).toBe('');

    // The next code is refused: its error shows alone, the last code's result is gone.
    const refused = 'The code is invalid or has already been used';
    routes['POST /api/credits/codes/activate'] = () =>
      new Response(
        JSON.stringify({
          success: false,
          errors: [{ code: 'VALIDATION_ERROR', message: refused, source: 'code' }],
        }),
        { status: 422 },
      );
    fireEvent.change(screen.getByRole('textbox', { name: /Code/ }), {
      target: { value: 'AAAA-BBBB-CCCC-0001' },
    });
    fireEvent.click(screen.getByRole('button', { name: 'Activate code' }));
    await screen.findByText(refused);
    expect(screen.queryByTestId('redeemed')).toBeNull();
  });
});

describe('company.resources (product §2, §3 buyData)', () => {
  it('shows the balances and buys data after asking “Spend N credits for M GB?”', async () => {
    routes['GET /api/companies/9/resources'] = () => ({
      company_id: 9,
      credits_left: 12,
      packs_left: 1,
      remaining_data: 5 * GB,
      per_type: [{ credit_type: 2, credit_type_name: 'Credits', left: 12 }],
    });
    routes['POST /api/companies/data'] = () => ({
      company_id: 9,
      credits: 3,
      data_bytes: 6 * GB,
      remaining_data: 11 * GB,
    });
    const company = { id: 9, name: 'Acme North', level: 2, payment_type: 'paid' as const };
    renderScreen('admin', 'company.resources.credits', () => (
      <CompanyResourcesTab tab="company.resources.credits" company={company} />
    ));
    expect((await screen.findByTestId('balance-credits')).textContent).toBe('12');
    expect(screen.getByTestId('balance-packs').textContent).toBe('1');
    expect(screen.getByTestId('balance-data').textContent).toBe('5 GB');
    await waitFor(() => expect(lastGet('/api/credits?')).toContain('company_id=9'));

    fireEvent.click(screen.getByTestId('buy-data'));
    const form = await screen.findByTestId('form-buyData');
    fireEvent.change(within(form).getByRole('textbox', { name: /Credits/ }), { target: { value: '003' } });
    fireEvent.click(within(form).getByRole('button', { name: 'Buy data' }));
    expect((await screen.findByTestId('confirm-message')).textContent).toBe('Spend 3 credits for 6 GB?');
    expect(calls.some((c) => c.method === 'POST')).toBe(false);
    const confirmWindow = screen.getByTestId('confirm-message').closest('[role="dialog"]') as HTMLElement;
    fireEvent.click(within(confirmWindow).getByRole('button', { name: 'Buy data' }));
    await screen.findByText('Data bought successfully');
    expect(calls.find((c) => c.method === 'POST')).toMatchObject({
      url: '/api/companies/data',
      body: { company_id: 9, credits: 3 },
    });
  });
});

describe('company resources: quotas and payment control', () => {
  const balances = () => ({ company_id: 9, credits_left: 0, packs_left: 0, remaining_data: 0, per_type: [] });

  it('lets a parent set, change and remove a subsidiary’s quota, and the subsidiary only read it', async () => {
    let quotas = [{ credit_type: 2, credit_type_name: 'Credits', cap: 12, moved: 5, left: 7 }];
    routes['GET /api/companies/9/resources'] = balances;
    routes['GET /api/companies/9/quotas'] = () => quotas;
    routes['GET /api/credits/types'] = () => [{ id: 2, name: 'Credits', payment_type: 'paid' }];
    routes['PUT /api/companies/9/quotas'] = (call) => {
      const body = call.body as { cap: number | null };
      quotas = body.cap === null ? [] : [{ ...quotas[0]!, cap: body.cap, left: body.cap - 5 }];
      return quotas;
    };
    const company = { id: 9, name: 'Acme North', level: 3, payment_type: 'paid' as const };
    renderScreen('admin', 'company.resources.credits', () => (
      <CompanyResourcesTab tab="company.resources.credits" company={company} />
    ));
    const row = await screen.findByTestId('quota-row');
    expect(row.textContent).toContain('Credits');
    expect(within(row).getByTestId('quota-left').textContent).toBe('7');

    fireEvent.click(within(row).getByTestId('quota-change'));
    const form = await screen.findByTestId('form-setQuota');
    const cap = within(form).getByRole('textbox', { name: /Quota/ });
    fireEvent.change(cap, { target: { value: '20' } });
    fireEvent.click(within(form).getByRole('button', { name: 'Save quota' }));
    await waitFor(() =>
      expect(calls.find((c) => c.method === 'PUT')?.body).toEqual({ credit_type_name: 'Credits', cap: 20 }),
    );
    await waitFor(() => expect(screen.getByTestId('quota-left').textContent).toBe('15'));

    fireEvent.click(screen.getByTestId('quota-remove'));
    expect((await screen.findByTestId('confirm-message')).textContent).toContain('Credits');
    const confirmWindow = screen.getByTestId('confirm-message').closest('[role="dialog"]') as HTMLElement;
    fireEvent.click(within(confirmWindow).getByRole('button', { name: 'Remove quota' }));
    await screen.findByTestId('quotas-empty');
    expect(calls.filter((c) => c.method === 'PUT').at(-1)?.body).toEqual({
      credit_type_name: 'Credits',
      cap: null,
    });
  });

  it('shows the company’s own users its quotas without the means to change them', async () => {
    routes['GET /api/companies/9/resources'] = balances;
    routes['GET /api/companies/9/quotas'] = () => [
      { credit_type: 2, credit_type_name: 'Credits', cap: 12, moved: 12, left: 0 },
    ];
    const own = { id: 9, parent_id: 2, name: 'Acme North', level: 3, show_payment: false };
    renderScreen(
      'admin',
      'company.resources.credits',
      () => (
        <CompanyResourcesTab
          tab="company.resources.credits"
          company={{ id: 9, name: 'Acme North', level: 3, payment_type: 'paid' }}
        />
      ),
      { user: testUser('admin', { company: own }) },
    );
    expect(within(await screen.findByTestId('quota-row')).getByTestId('quota-left').textContent).toBe('0');
    expect(screen.queryByTestId('quota-set')).toBeNull();
    expect(screen.queryByTestId('quota-change')).toBeNull();
  });

  it('shows the top company’s users payment control over any company, changed by the super admin', async () => {
    routes['GET /api/companies/9/resources'] = balances;
    const top = { id: 1, parent_id: null, name: 'Fleetgate', level: 1, show_payment: false };
    const user = { ...testUser('super_admin', { company: top }), show_payment_control: true };
    renderScreen(
      'super_admin',
      'company.resources.credits',
      () => (
        <CompanyResourcesTab
          tab="company.resources.credits"
          company={{ id: 9, name: 'Partner', level: 2, payment_type: 'free' }}
        />
      ),
      { user },
    );
    const panel = await screen.findByTestId('company-payments');
    expect(within(panel).getByTestId('payment-type').textContent).toBe('Free supply');
    expect(within(panel).queryByTestId('buy-link')).toBeNull();
    expect(within(panel).getByTestId('payment-change')).toBeTruthy();
  });

  it('shows a paid company’s own users the brand’s buy link and notice, and a free one nothing', async () => {
    routes['GET /api/companies/9/resources'] = balances;
    const acmeNorth = { id: 9, parent_id: 2, name: 'Acme North', level: 3, show_payment: true };
    const user = { ...testUser('admin', { company: acmeNorth }), show_payment: true };
    const brand = {
      ...DEFAULT_BRAND,
      buy_link: 'https://shop.example.test/buy',
      buy_notice: 'Invoices monthly',
    };
    const tab = (payment_type: 'paid' | 'free') => () => (
      <CompanyResourcesTab
        tab="company.resources.credits"
        company={{ id: 9, name: 'Acme North', level: 3, payment_type }}
      />
    );
    renderScreen('admin', 'company.resources.credits', tab('paid'), { user, brand });
    const panel = await screen.findByTestId('company-payments');
    expect(within(panel).getByTestId('buy-link').getAttribute('href')).toBe('https://shop.example.test/buy');
    expect(within(panel).getByTestId('buy-notice').textContent).toBe('Invoices monthly');
    // Payment control is the top company's; a customer never sees it.
    expect(within(panel).queryByTestId('payment-type')).toBeNull();
    cleanup();

    renderScreen('admin', 'company.resources.credits', tab('free'), { user, brand });
    await screen.findByTestId('company-balances');
    expect(screen.queryByTestId('company-payments')).toBeNull();
  });
});
