import { PERMISSIONS, type Permission } from '@fleetgate/shared/permissions';
import { RESOURCE_TYPES, typeNameFor } from '@fleetgate/shared/resources';
import { DEFAULT_BRAND } from '@fleetgate/shared/schemas/brand';
import { MantineProvider } from '@mantine/core';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { initI18n } from '#src/i18n/i18n';
import { WindowsProvider } from '#src/lib/dialogs/WindowsProvider';
import { createWindowsStore } from '#src/lib/dialogs/windows-store';
import { clearResponseCache } from '#src/lib/http/client';
import { SessionProvider } from '#src/lib/session/session-context';
import { testUser } from '#src/test/users';
import { DevicePackDialog, ManageServicesDialog } from './ManageServicesDialog';

const user = (permissions: readonly Permission[]) =>
  testUser('admin', {
    permissions,
    company: { id: 3, parent_id: null, name: 'Acme', level: 1, show_payment: false },
  });

/** What a non-super-admin reads from GET /credits/types (product §6: paid types, without 'Paid'). */
const TYPES = RESOURCE_TYPES.filter((t) => t.payment_type === 'paid').map((t) => ({
  ...t,
  name: typeNameFor(t, false),
}));

type Call = { method: string; url: string; body: unknown };
let calls: Call[];
let activation: () => Response;

const json = (body: unknown, status = 200) => new Response(JSON.stringify(body), { status });

beforeAll(async () => {
  await initI18n();
});
beforeEach(() => {
  calls = [];
  clearResponseCache();
  activation = () =>
    json(
      {
        success: false,
        errors: [{ code: 'VALIDATION', message: 'Not enough credits: 0 left', source: 'credit_type_name' }],
      },
      400,
    );
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: string, init: RequestInit = {}) => {
      const url = String(input);
      const method = init.method ?? 'GET';
      calls.push({ method, url, body: init.body ? JSON.parse(String(init.body)) : undefined });
      if (url.startsWith('/api/credits/types')) return json({ success: true, data: TYPES });
      if (url === '/api/devices/5/services' && method === 'POST') return activation();
      if (url === '/api/devices/5/services')
        return json({
          success: true,
          data: {
            device_id: 5,
            company_id: 3,
            active: true,
            service_until: '2030-01-01T00:00:00.000Z',
            service_type: null,
            service_type_name: null,
            trial: true,
            auto_renew: true,
            data_packs: [],
          },
        });
      if (url === '/api/devices/5')
        return json({
          success: true,
          data: { id: 5, name: 'Harbour gateway', company_id: 3, company_name: 'Acme' },
        });
      if (url === '/api/companies/3/resources')
        return json({
          success: true,
          data: {
            company_id: 3,
            credits_left: 3,
            packs_left: 1,
            remaining_data: 0,
            per_type: [
              { credit_type: 2, credit_type_name: 'Credits', left: 3 },
              { credit_type: 8, credit_type_name: 'Management pack (10 years)', left: 1 },
              { credit_type: 10, credit_type_name: 'Connection data pack (1 GB)', left: 5 },
            ],
          },
        });
      return json({ success: false, errors: [{ message: `unexpected ${method} ${url}` }] }, 500);
    }),
  );
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

function renderDialog(
  pack: boolean,
  permissions: readonly Permission[] = PERMISSIONS.filter((p) => p !== 'super_admin'),
) {
  const Dialog = pack ? DevicePackDialog : ManageServicesDialog;
  render(
    <MantineProvider env="test">
      <QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>
        <SessionProvider user={user(permissions)} brand={DEFAULT_BRAND}>
          <MemoryRouter>
            <WindowsProvider store={createWindowsStore()}>
              <Dialog id={5} name="Harbour gateway" />
            </WindowsProvider>
          </MemoryRouter>
        </SessionProvider>
      </QueryClientProvider>
    </MantineProvider>,
  );
}

async function offered(label: RegExp) {
  const select = await screen.findByRole('combobox', { name: label });
  fireEvent.click(select);
  const list = await screen.findByRole('listbox');
  return within(list)
    .getAllByRole('option')
    .map((option) => option.textContent);
}

describe("'manage services' (product §2 device dialog)", () => {
  it('offers only what switches a service on: credits and management packs', async () => {
    renderDialog(false);
    expect(await offered(/^Resource type/)).toEqual([
      'Credits',
      'Management pack (3 years)',
      'Management pack (5 years)',
      'Management pack (10 years)',
    ]);
  });

  it("offers management packs only in 'device pack'", async () => {
    renderDialog(true);
    expect(await offered(/^Management pack/)).toEqual([
      'Management pack (3 years)',
      'Management pack (5 years)',
      'Management pack (10 years)',
    ]);
  });

  it('shows beside the form what the company has left of the types on offer', async () => {
    renderDialog(false);
    const left = await screen.findByTestId('services-left');
    await waitFor(() => expect(within(left).getAllByTestId('services-left-row')).toHaveLength(3));
    expect(
      within(left)
        .getAllByTestId('services-left-row')
        .map((row) => row.textContent),
    ).toEqual(['Credits3', 'Management pack (10 years)1', 'Connection data pack (1 GB)5']);
  });

  it('shows no balances to a user who may not read the credits', async () => {
    renderDialog(false, ['view_devices', 'update_device_credit_status']);
    await screen.findByRole('combobox', { name: /^Resource type/ });
    expect(screen.queryByTestId('services-left')).toBeNull();
    expect(calls.some((c) => c.url.includes('/resources'))).toBe(false);
  });

  it("sends the type by name with the device's auto-renew, and shows the refusal under the type", async () => {
    renderDialog(false);
    await offered(/^Resource type/);
    fireEvent.click(screen.getByRole('option', { name: 'Credits' }));
    // The switch starts where the service stands (auto_renew true).
    await waitFor(() =>
      expect((screen.getByLabelText(/^Auto-renew/) as HTMLInputElement).checked).toBe(true),
    );
    fireEvent.click(screen.getByRole('button', { name: 'Activate' }));
    await screen.findByText('Not enough credits: 0 left');
    expect(calls.filter((c) => c.method === 'POST')).toEqual([
      {
        method: 'POST',
        url: '/api/devices/5/services',
        body: { credit_type_name: 'Credits', auto_renew: true },
      },
    ]);
  });

  it('offers connection data packs as a kind of their own, without auto-renew, and sends the type alone', async () => {
    activation = () => json({ success: true, data: {}, message: 'Service activated successfully' }, 200);
    renderDialog(false);
    fireEvent.click(
      await screen.findByRole('radio', { name: 'Data for the device: a connection data pack' }),
    );
    await waitFor(() => expect(screen.queryByLabelText(/^Auto-renew/)).toBeNull());
    expect(await offered(/^Resource type/)).toEqual([
      'Connection data pack (1 GB)',
      'Connection data pack (10 GB)',
    ]);
    fireEvent.click(screen.getByRole('option', { name: 'Connection data pack (1 GB)' }));
    fireEvent.click(screen.getByRole('button', { name: 'Activate' }));
    await waitFor(() => expect(calls.filter((c) => c.method === 'POST')).toHaveLength(1));
    expect(calls.find((c) => c.method === 'POST')).toEqual({
      method: 'POST',
      url: '/api/devices/5/services',
      body: { credit_type_name: 'Connection data pack (1 GB)' },
    });
  });

  it('clears a type of the other kind when the kind changes', async () => {
    renderDialog(false);
    await offered(/^Resource type/);
    fireEvent.click(screen.getByRole('option', { name: 'Credits' }));
    fireEvent.click(screen.getByRole('radio', { name: 'Data for the device: a connection data pack' }));
    await waitFor(() =>
      expect((screen.getByRole('combobox', { name: /^Resource type/ }) as HTMLInputElement).value).toBe(''),
    );
  });

  it("offers no data packs in 'device pack'", async () => {
    renderDialog(true);
    await screen.findByRole('combobox', { name: /^Management pack/ });
    expect(screen.queryAllByRole('radio')).toEqual([]);
  });

  it('refuses to send without a type, in words', async () => {
    renderDialog(false);
    await screen.findByRole('combobox', { name: /^Resource type/ });
    fireEvent.click(screen.getByRole('button', { name: 'Activate' }));
    await screen.findByText('Resource type is required');
    expect(calls.filter((c) => c.method === 'POST')).toEqual([]);
  });
});
