import { PERMISSIONS } from '@fleetgate/shared/permissions';
import { RESOURCE_TYPES, typeNameFor } from '@fleetgate/shared/resources';
import { DEFAULT_BRAND } from '@fleetgate/shared/schemas/brand';
import { MantineProvider } from '@mantine/core';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import type { ReactNode } from 'react';
import { MemoryRouter } from 'react-router';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { initI18n } from '#src/i18n/i18n';
import { WindowsProvider } from '#src/lib/dialogs/WindowsProvider';
import { createWindowsStore } from '#src/lib/dialogs/windows-store';
import { clearResponseCache } from '#src/lib/http/client';
import { SessionProvider } from '#src/lib/session/session-context';
import { testUser } from '#src/test/users';
import { moveDeviceResourcesForm } from '../forms/service-forms';
import { BulkServicesDialog } from './BulkServicesDialog';
import { FormDialog } from './FormDialogs';

const user = testUser('admin', {
  permissions: PERMISSIONS.filter((p) => p !== 'super_admin'),
  company: { id: 3, parent_id: null, name: 'Acme', level: 1, show_payment: false },
});

/** What a non-super-admin reads from GET /credits/types (product §6: paid types, without 'Paid'). */
const TYPES = RESOURCE_TYPES.filter((t) => t.payment_type === 'paid').map((t) => ({
  ...t,
  name: typeNameFor(t, false),
}));

const DAY = 86_400_000;
const QUAY = { id: 5, name: 'Quay router', serial: '1100000001' };
const DOCK = { id: 6, name: 'Dock router', serial: '1100000002' };

const service = (id: number, over: Record<string, unknown>) => ({
  device_id: id,
  company_id: 3,
  active: true,
  service_until: new Date(Date.now() + 12.5 * DAY).toISOString(),
  service_type: 2,
  service_type_name: 'Credits',
  trial: false,
  auto_renew: false,
  data_packs: [],
  ...over,
});

type Call = { method: string; url: string; body: unknown };
let calls: Call[];
let answer: () => Response;

const json = (body: unknown, status = 200) => new Response(JSON.stringify(body), { status });
const refusal = (message: string, source: string) =>
  json({ success: false, errors: [{ code: 'VALIDATION', message, source }] }, 400);

beforeAll(async () => {
  await initI18n();
});
beforeEach(() => {
  calls = [];
  clearResponseCache();
  answer = () => json({ success: true, data: {}, message: 'Done successfully' });
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: string, init: RequestInit = {}) => {
      const url = String(input);
      const method = init.method ?? 'GET';
      calls.push({ method, url, body: init.body ? JSON.parse(String(init.body)) : undefined });
      if (method === 'POST') return answer();
      if (url.startsWith('/api/credits/types')) return json({ success: true, data: TYPES });
      if (url === '/api/devices/5')
        return json({ success: true, data: { ...QUAY, company_id: 3, company_name: 'Acme' } });
      if (url === '/api/devices/7')
        return json({ success: true, data: { id: 7, name: 'Trial router', serial: '1100000007' } });
      if (url === '/api/devices/5/services')
        return json({
          success: true,
          data: service(5, {
            data_packs: [{ credit_type: 10, credit_type_name: 'Connection data pack (1 GB)', left: 2 }],
          }),
        });
      if (url === '/api/devices/7/services')
        return json({
          success: true,
          data: service(7, { trial: true, service_type: null, service_type_name: null }),
        });
      if (url.startsWith('/api/devices?')) {
        const q = new URL(url, 'http://x').searchParams.get('q');
        const all = [DOCK, QUAY];
        const data = q ? all.filter((d) => d.name.toLowerCase().includes(q.toLowerCase())) : all;
        return json({ success: true, data, meta: { total: data.length } });
      }
      return json({ success: false, errors: [{ message: `unexpected ${method} ${url}` }] }, 500);
    }),
  );
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

function renderIn(children: ReactNode) {
  render(
    <MantineProvider env="test">
      <QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>
        <SessionProvider user={user} brand={DEFAULT_BRAND}>
          <MemoryRouter>
            <WindowsProvider store={createWindowsStore()}>{children}</WindowsProvider>
          </MemoryRouter>
        </SessionProvider>
      </QueryClientProvider>
    </MantineProvider>,
  );
}

const posts = () => calls.filter((c) => c.method === 'POST');

async function options(select: HTMLElement) {
  fireEvent.click(select);
  const list = await screen.findByRole('listbox');
  return within(list)
    .getAllByRole('option')
    .map((option) => option.textContent);
}

describe("'move device resources' (product §2 dialog, POST /devices/credits/move)", () => {
  const openMove = (id = 5) => renderIn(<FormDialog definition={moveDeviceResourcesForm} id={id} />);

  it('starts from the device it was opened from and never offers it as the target', async () => {
    openMove();
    const source = await screen.findByRole('combobox', { name: /^Source device/ });
    await waitFor(() => expect((source as HTMLInputElement).value).toBe('Quay router (1100000001)'));
    const target = screen.getByRole('combobox', { name: /^Target device/ });
    await waitFor(async () => expect(await options(target)).toEqual(['Dock router (1100000002)']));
  });

  it("offers the credit's whole days with what is left, and each data pack the device holds", async () => {
    openMove();
    const days = await screen.findByRole('radio', { name: 'Remaining days of the credit' });
    const resources = screen.getByTestId('move-resources');
    await within(resources).findByText(/^12 whole days left \(service until /);
    expect((days as HTMLInputElement).disabled).toBe(false);
    within(resources).getByRole('radio', { name: 'Connection data pack (1 GB)' });
    within(resources).getByText('2 unused on this device; one moves');
  });

  it('says under the form what moves: the days end on the source device now', async () => {
    openMove();
    const explain = await screen.findByTestId('move-explain');
    expect(explain.textContent).toContain('management pack and a trial stay with their device');
    fireEvent.click(await screen.findByRole('radio', { name: 'Remaining days of the credit' }));
    await waitFor(() => expect(explain.textContent).toContain('The service on the source device ends now'));
    expect(explain.textContent).toContain('extended by 12 days');
    fireEvent.click(screen.getByRole('radio', { name: 'Connection data pack (1 GB)' }));
    await waitFor(() =>
      expect(explain.textContent).toContain('One Connection data pack (1 GB) moves from the source device'),
    );
  });

  it('sends source, target and resource, and shows a refusal under the resource', async () => {
    answer = () => refusal('The source device has no whole day of service left', 'resource');
    openMove();
    const target = await screen.findByRole('combobox', { name: /^Target device/ });
    await options(target);
    fireEvent.click(await screen.findByRole('option', { name: 'Dock router (1100000002)' }));
    fireEvent.click(await screen.findByRole('radio', { name: 'Remaining days of the credit' }));
    fireEvent.click(screen.getByRole('button', { name: 'Move' }));
    await screen.findByText('The source device has no whole day of service left');
    expect(posts()).toEqual([
      { method: 'POST', url: '/api/devices/credits/move', body: { source: 5, target: 6, resource: 'days' } },
    ]);
  });

  it('shows a refusal of the target under the target', async () => {
    answer = () => refusal('Source and target must be different devices', 'target');
    openMove();
    await options(await screen.findByRole('combobox', { name: /^Target device/ }));
    fireEvent.click(await screen.findByRole('option', { name: 'Dock router (1100000002)' }));
    fireEvent.click(await screen.findByRole('radio', { name: 'Connection data pack (1 GB)' }));
    fireEvent.click(screen.getByRole('button', { name: 'Move' }));
    await screen.findByText('Source and target must be different devices');
    expect(posts()[0]!.body).toEqual({ source: 5, target: 6, resource: 'Connection data pack (1 GB)' });
  });

  it('refuses to send without a target or a resource, in words', async () => {
    openMove();
    await screen.findByRole('radio', { name: 'Remaining days of the credit' });
    fireEvent.click(screen.getByRole('button', { name: 'Move' }));
    await screen.findByText('Target device is required');
    await screen.findByText('Resource is required');
    expect(posts()).toEqual([]);
  });

  it("blocks a trial's days with the reason, and says the device holds no data pack", async () => {
    openMove(7);
    const days = await screen.findByRole('radio', { name: 'Remaining days of the credit' });
    await screen.findByText('The device is on its trial: only the days of a credit can move.');
    expect((days as HTMLInputElement).disabled).toBe(true);
    screen.getByTestId('move-no-packs');
  });
});

describe("bulk 'manage services' (POST /devices/services)", () => {
  const DEVICES = [
    { id: 5, name: 'Quay router' },
    { id: 6, name: 'Dock router' },
  ];

  it('names the devices it reaches and offers what switches a service on, no data packs', async () => {
    renderIn(<BulkServicesDialog devices={DEVICES} />);
    expect((await screen.findByTestId('bulk-services-count')).textContent).toBe('Activate on 2 devices:');
    expect(
      within(screen.getByTestId('bulk-services-devices'))
        .getAllByRole('listitem')
        .map((item) => item.textContent),
    ).toEqual(['Quay router', 'Dock router']);
    expect(await options(screen.getByRole('combobox', { name: /^Resource type/ }))).toEqual([
      'Credits',
      'Management pack (3 years)',
      'Management pack (5 years)',
      'Management pack (10 years)',
    ]);
  });

  it("sends every device with the type, and leaves each device's auto-renew alone unless ticked", async () => {
    renderIn(<BulkServicesDialog devices={DEVICES} />);
    await options(await screen.findByRole('combobox', { name: /^Resource type/ }));
    fireEvent.click(screen.getByRole('option', { name: 'Credits' }));
    fireEvent.click(screen.getByRole('button', { name: 'Activate' }));
    await waitFor(() => expect(posts()).toHaveLength(1));
    expect(posts()[0]).toEqual({
      method: 'POST',
      url: '/api/devices/services',
      body: { device_id: [5, 6], credit_type_name: 'Credits' },
    });
  });

  it('switches auto-renew on for all when ticked', async () => {
    renderIn(<BulkServicesDialog devices={DEVICES} />);
    await options(await screen.findByRole('combobox', { name: /^Resource type/ }));
    fireEvent.click(screen.getByRole('option', { name: 'Management pack (3 years)' }));
    fireEvent.click(screen.getByLabelText(/^Switch auto-renew on/));
    fireEvent.click(screen.getByRole('button', { name: 'Activate' }));
    await waitFor(() => expect(posts()).toHaveLength(1));
    expect(posts()[0]!.body).toEqual({
      device_id: [5, 6],
      credit_type_name: 'Management pack (3 years)',
      auto_renew: true,
    });
  });

  it('shows the all-or-none refusal under the type', async () => {
    answer = () => refusal('Not enough credits: 1 left', 'credit_type_name');
    renderIn(<BulkServicesDialog devices={DEVICES} />);
    await options(await screen.findByRole('combobox', { name: /^Resource type/ }));
    fireEvent.click(screen.getByRole('option', { name: 'Credits' }));
    fireEvent.click(screen.getByRole('button', { name: 'Activate' }));
    await screen.findByText('Not enough credits: 1 left');
    screen.getByText(/If any company has too few, nothing is activated/);
  });
});
