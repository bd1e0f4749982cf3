import { PERMISSIONS, type Permission } from '@fleetgate/shared/permissions';
import { DEFAULT_BRAND } from '@fleetgate/shared/schemas/brand';
import { MantineProvider } from '@mantine/core';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { initI18n } from '#src/i18n/i18n';
import { WindowsProvider } from '#src/lib/dialogs/WindowsProvider';
import { createWindowsStore } from '#src/lib/dialogs/windows-store';
import { SessionProvider } from '#src/lib/session/session-context';
import { testUser } from '#src/test/users';
import { BulkBar } from './BulkBar';

const user = (permissions: readonly Permission[]) =>
  testUser('admin', {
    permissions,
    company: { id: 3, parent_id: null, name: 'Acme', level: 1, show_payment: false },
  });

const FILTERS = { q: '', status: [], model: [], company_id: [], firmware: [], tag_id: [] };

beforeAll(async () => {
  await initI18n();
});
afterEach(cleanup);

function renderBar(permissions: readonly Permission[], selectedIds: number[]) {
  render(
    <MantineProvider env="test">
      <QueryClientProvider client={new QueryClient()}>
        <SessionProvider user={user(permissions)} brand={DEFAULT_BRAND}>
          <MemoryRouter>
            <WindowsProvider store={createWindowsStore()}>
              <BulkBar
                filters={FILTERS}
                selectedIds={selectedIds}
                allMatching={false}
                total={selectedIds.length}
                names={new Map()}
                onSelectAll={() => {}}
                onClear={() => {}}
              />
            </WindowsProvider>
          </MemoryRouter>
        </SessionProvider>
      </QueryClientProvider>
    </MantineProvider>,
  );
  fireEvent.click(screen.getByTestId('bulk-actions'));
}

const items = async () =>
  (await screen.findAllByRole('menuitem')).map((item) => item.getAttribute('data-action'));

describe('the bulk actions of the devices table', () => {
  it("offers 'Manage services' to a user who may change services but not manage devices, and nothing else", async () => {
    renderBar(['view_devices', 'update_device_credit_status'], [5, 6]);
    expect(await items()).toEqual(['services']);
  });

  it('offers the device commands to managers, after the services', async () => {
    renderBar(
      PERMISSIONS.filter((p) => p !== 'super_admin'),
      [5, 6],
    );
    const actions = await items();
    expect(actions[0]).toBe('services');
    expect(actions).toContain('reboot');
    expect(actions).toContain('tags');
  });

  it('says why services cannot reach more than 100 devices at a time', async () => {
    renderBar(
      ['view_devices', 'update_device_credit_status'],
      Array.from({ length: 101 }, (_, i) => i + 1),
    );
    const item = await screen.findByRole('menuitem', { name: /Manage services/ });
    expect(item.hasAttribute('disabled') || item.getAttribute('data-disabled') === 'true').toBe(true);
    expect(screen.getByTestId('bulk-services-limit').textContent).toBe('At most 100 devices at a time');
  });
});
