import { deriveCapabilities } from '@fleetgate/shared/devices/capabilities';
import { DEFAULT_THEME, MantineProvider } from '@mantine/core';
import { cleanup, render, screen } from '@testing-library/react';
import i18next from 'i18next';
import { MemoryRouter } from 'react-router';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { initI18n } from '#src/i18n/i18n';
import type { DeviceDetail } from '../api/types';
import { DEVICE_COLUMNS, deviceColumns } from '../table/columns';
import { DevicesTable } from '../table/DevicesTable';
import { defaultSettings } from '../utils/table-settings';
import { DeviceHeader } from './DeviceHeader';

const SCRIPT = '<script>window.__pwned = 1</script>';
const IMG = '<img src="x" onerror="window.__pwned = 2">';

const device: DeviceDetail = {
  id: 9,
  name: SCRIPT,
  description: IMG,
  serial: '1100100018',
  mac: '00:1E:42:5D:0A:17',
  model: 'RUTX11',
  original_model: 'RUTX11',
  firmware: 'RUTX_R_00.07.14.2',
  imei: null,
  esim: false,
  status: 1,
  status_text: 'Online',
  company_id: 2,
  company_name: '<b>Acme</b>',
  monitoring_enabled: true,
  monitoring_period: 300,
  credit_active: true,
  last_seen_at: 'not a time',
  created_at: '2026-01-01T00:00:00Z',
  signal: Number.NaN,
  temperature: null,
  operator: IMG,
  wan_type: null,
  wan_ip: null,
  uptime: null,
  capabilities: deriveCapabilities({ model: 'RUTX11', firmware: 'RUTX_R_00.07.14.2' }),
  sims: [],
  hostname: SCRIPT,
  agent: null,
  connected_at: null,
  secret_issued: true,
  state: null,
  state_at: null,
  tags: [{ id: 1, name: SCRIPT, color: '#228be6' }],
};

beforeAll(async () => {
  await initI18n();
});
afterEach(cleanup);

function inert(container: HTMLElement) {
  expect(container.querySelectorAll('script, img')).toHaveLength(0);
  expect((window as { __pwned?: number }).__pwned).toBeUndefined();
}

describe('device-reported and user strings render as text only', () => {
  it('shows a <script> name, hostname, operator and tag in the header as plain text', () => {
    const { container } = render(
      <MantineProvider>
        <MemoryRouter>
          <DeviceHeader device={device} companyLink />
        </MemoryRouter>
      </MantineProvider>,
    );
    expect(screen.getByTestId('device-hostname').textContent).toBe(SCRIPT);
    expect(screen.getByTestId('device-tags').textContent).toBe(SCRIPT);
    expect(container.textContent).toContain(IMG);
    expect(container.textContent).toContain('<b>Acme</b>');
    inert(container);
  });

  it('shows the same in a table row, with a dash for invalid values (product §8)', () => {
    const settings = { ...defaultSettings(DEVICE_COLUMNS), hidden: [] };
    const { container } = render(
      <MantineProvider>
        <MemoryRouter>
          <DevicesTable
            rows={[device]}
            columns={deviceColumns(i18next.getFixedT('en', 'devices'), {
              companyLinks: false,
              modelName: (d) => d.model,
              theme: DEFAULT_THEME,
            })}
            settings={settings}
            sort="name"
            onSort={() => {}}
            selection={{}}
            onSelection={() => {}}
            loading={false}
          />
        </MemoryRouter>
      </MantineProvider>,
    );
    expect(screen.getByTestId('device-link').textContent).toBe(SCRIPT);
    const cell = (column: string) => container.querySelector(`td[data-column="${column}"]`)!.textContent;
    expect(cell('operator')).toBe(IMG);
    expect(cell('signal')).toBe('-');
    expect(cell('last_seen_at')).toBe('-');
    expect(cell('imei')).toBe('-');
    expect(screen.getByTestId('device-status').textContent).toBe('Online');
    inert(container);
  });
});
