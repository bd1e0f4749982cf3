import { MantineProvider } from '@mantine/core';
import { act, cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { initI18n } from '#src/i18n/i18n';
import { userStorage } from '#src/lib/storage/user-storage';
import { DEVICE_COLUMNS } from './columns';
import { TableSettingsDialog } from './TableSettingsDialog';
import { useTableSettings } from './use-table-settings';

const KEY = 'table.devices.test';
let stored: { key: string; value: unknown }[];
let requests: { method: string; url: string; body: unknown }[];

beforeAll(async () => {
  await initI18n();
});
beforeEach(() => {
  stored = [];
  requests = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string, init: RequestInit = {}) => {
      const method = init.method ?? 'GET';
      const body = init.body ? JSON.parse(String(init.body)) : undefined;
      requests.push({ method, url, body });
      if (method === 'GET') {
        return new Response(JSON.stringify({ success: true, data: stored, meta: { total: stored.length } }));
      }
      return new Response(JSON.stringify({ success: true, data: {} }));
    }),
  );
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

function Probe() {
  const [settings] = useTableSettings(KEY, DEVICE_COLUMNS);
  return <output data-testid="probe">{JSON.stringify(settings)}</output>;
}

const columns = DEVICE_COLUMNS.map((c) => ({ ...c, label: c.id }));

describe('column settings persistence (product §7 Storage)', () => {
  it('saves every change in the per-user storage and reads it back in a new session', async () => {
    render(
      <MantineProvider>
        <TableSettingsDialog storageKey={KEY} columns={columns} />
        <Probe />
      </MantineProvider>,
    );
    const model = screen.getByRole('checkbox', { name: 'model' });
    fireEvent.click(model);
    fireEvent.click(screen.getByRole('radio', { name: 'Compact' }));
    await waitFor(() => expect(JSON.parse(screen.getByTestId('probe').textContent!).density).toBe('compact'));

    // First write creates the record, the next one updates it (product §7: POST new key, PUT existing).
    const writes = requests.filter((r) => r.method !== 'GET');
    expect(writes[0]).toMatchObject({ method: 'POST', url: '/api/storage' });
    expect(writes[0]!.body).toMatchObject({ key: KEY, value: { hidden: expect.arrayContaining(['model']) } });
    expect(writes.at(-1)).toMatchObject({ method: 'PUT', url: `/api/storage/${encodeURIComponent(KEY)}` });
    const saved = writes.at(-1)!.body as { value: unknown };

    // A new session: the storage is loaded from the server and gives the same layout.
    cleanup();
    userStorage.remove(KEY);
    stored = [{ key: KEY, value: saved.value }];
    await act(() => userStorage.load());
    render(
      <MantineProvider>
        <Probe />
      </MantineProvider>,
    );
    const settings = JSON.parse(screen.getByTestId('probe').textContent!);
    expect(settings.density).toBe('compact');
    expect(settings.hidden).toContain('model');
  });
});
