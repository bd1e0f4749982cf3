import { MantineProvider } from '@mantine/core';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { cleanup, render, screen, within } from '@testing-library/react';
import i18next from 'i18next';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { initI18n } from '#src/i18n/i18n';
import type { ApprovedDeviceJson } from '../api/approved-devices';
import { ApprovedDevicesTable } from './ApprovedDevicesTable';

const approval = (id: number, over: Partial<ApprovedDeviceJson> = {}): ApprovedDeviceJson => ({
  id,
  serial: `RUT00${id}`,
  mac: `00:1E:42:00:00:0${id}`,
  company_id: 2,
  company_name: 'Acme',
  note: '',
  created_at: '2025-03-01T10:00:00.000Z',
  registered_at: null,
  device_id: null,
  ...over,
});

let requested: string[];
let rows: ApprovedDeviceJson[];

beforeAll(async () => {
  await initI18n();
  // The feature's texts come with its screens (its manifest's loaders); here, at once.
  await i18next.loadNamespaces('approved-devices');
});
beforeEach(() => {
  requested = [];
  vi.stubGlobal('fetch', async (url: string, init: RequestInit) => {
    requested.push(`${init.method} ${url}`);
    return new Response(JSON.stringify({ success: true, data: rows, meta: { total: 30 } }));
  });
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

function renderAt(path: string) {
  const router = createMemoryRouter([{ path: '/auth-devices', element: <ApprovedDevicesTable /> }], {
    initialEntries: [path],
  });
  render(
    <MantineProvider env="test">
      <QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>
        <RouterProvider router={router} />
      </QueryClientProvider>
    </MantineProvider>,
  );
}

describe('the approved-devices table (product §2 auth.devices)', () => {
  it('asks for the page of the URL, newest approval first', async () => {
    rows = [approval(1)];
    renderAt('/auth-devices?page=2');
    await screen.findByTestId('approved-row');
    expect(requested).toHaveLength(1);
    const asked = new URL(requested[0]!.replace(/^GET /, ''), 'http://x').searchParams;
    expect(Object.fromEntries(asked)).toMatchObject({ sort: '-created_at', limit: '25', offset: '25' });
    const approved = screen.getByRole('columnheader', { name: /Approved/ });
    expect(approved.getAttribute('aria-sort')).toBe('descending');
  });

  it('sends the search and the sort of the URL to the server, which does both', async () => {
    rows = [approval(1)];
    renderAt('/auth-devices?q=RUT&sort=serial');
    await screen.findByTestId('approved-row');
    const asked = new URL(requested[0]!.replace(/^GET /, ''), 'http://x').searchParams;
    expect(Object.fromEntries(asked)).toMatchObject({ q: 'RUT', sort: 'serial', offset: '0' });
    expect(screen.getByRole('columnheader', { name: /Serial number/ }).getAttribute('aria-sort')).toBe(
      'ascending',
    );
  });

  it('links the company and the registered device, and says when a device has not registered yet', async () => {
    rows = [
      approval(1, { device_id: 9, registered_at: '2025-03-02T08:00:00.000Z' }),
      approval(2),
      approval(3, { company_id: null, company_name: null }),
    ];
    renderAt('/auth-devices');
    const [registered, waiting, orphan] = await screen.findAllByTestId('approved-row');
    expect(within(registered!).getByRole('link', { name: 'Acme' }).getAttribute('href')).toBe('/companies/2');
    expect(
      within(registered!)
        .getByRole('link', { name: 'Open the device with serial RUT001' })
        .getAttribute('href'),
    ).toBe('/devices/9');
    expect(within(waiting!).getByTestId('approved-state').textContent).toBe('Not registered yet');
    expect(within(waiting!).queryByRole('link', { name: /Open the device/ })).toBeNull();
    expect(orphan!.textContent).toContain('No company');
    expect(within(orphan!).queryByRole('link')).toBeNull();
  });
});
