import { MantineProvider } from '@mantine/core';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import i18next from 'i18next';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { initI18n } from '#src/i18n/i18n';
import { ImportApprovedDevicesDialog } from './ImportApprovedDevicesDialog';

let posted: Record<string, unknown>[];

beforeAll(async () => {
  await initI18n();
  // The feature's texts come with its screens (its manifest's loaders); here, at once.
  await i18next.loadNamespaces('approved-devices');
});
beforeEach(() => {
  posted = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string, init: RequestInit) => {
      if (url.startsWith('/api/companies'))
        return new Response(JSON.stringify({ success: true, data: [{ id: 7, name: 'Acme' }] }));
      const body = JSON.parse(String(init.body)) as Record<string, unknown>;
      posted.push(body);
      if (body.serial === 'RUTTAKEN1')
        return new Response(
          JSON.stringify({
            success: false,
            errors: [
              { code: 'CONFLICT', message: 'This serial number is approved already', source: 'serial' },
            ],
          }),
          { status: 409, statusText: 'Conflict' },
        );
      return new Response(JSON.stringify({ success: true, data: { id: posted.length } }));
    }),
  );
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

function renderDialog() {
  render(
    <MantineProvider env="test">
      <QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>
        <ImportApprovedDevicesDialog />
      </QueryClientProvider>
    </MantineProvider>,
  );
}

function choose(name: string, text: string, type = 'text/csv') {
  const input = document.querySelector<HTMLInputElement>('input[type="file"]')!;
  fireEvent.change(input, { target: { files: [new File([text], name, { type })] } });
}

const results = () =>
  screen.getAllByTestId('import-result').map((tr) => ({
    line: tr.dataset.line,
    status: tr.dataset.status,
    text: within(tr).getAllByRole('cell').at(-1)?.textContent,
  }));

describe('Import CSV of approved devices', () => {
  it('sends each good row, and lists every row with Approved or the reason', async () => {
    renderDialog();
    choose(
      'approved devices.csv',
      'serial,mac,company_id\nRUTGOOD01,001e42aabb01,7\nRUTTAKEN1,00:1E:42:AA:BB:02,7\nx,00:1E:42:AA:BB:03,7\n',
    );
    expect((await screen.findByTestId('import-ready')).textContent).toBe('Rows to approve: 3');
    fireEvent.click(screen.getByTestId('import-start'));

    await screen.findByTestId('import-summary');
    const summary = screen.getByTestId('import-summary').textContent;
    expect(summary).toContain('Rows approved: 1 of 3');
    expect(summary).toContain('Rows failed: 2. Fix them in the file and import it again');
    expect(summary).not.toContain('not sent');
    // The bad serial never left the browser; the other two were sent as the schema reads them.
    expect(posted).toEqual([
      { serial: 'RUTGOOD01', mac: '001e42aabb01', company_id: 7 },
      { serial: 'RUTTAKEN1', mac: '00:1E:42:AA:BB:02', company_id: 7 },
    ]);
    expect(results()).toEqual([
      { line: '2', status: 'approved', text: 'Approved' },
      { line: '3', status: 'failed', text: 'This serial number is approved already' },
      {
        line: '4',
        status: 'failed',
        text: 'Serial number must be 4 to 32 letters, digits, dashes or underscores',
      },
    ]);
    // The same file cannot be sent twice by a second click.
    expect(screen.getByTestId('import-start')).toHaveProperty('disabled', true);

    fireEvent.click(screen.getByRole('switch', { name: 'Show only rows not approved' }));
    await waitFor(() => expect(results().map((r) => r.line)).toEqual(['3', '4']));
  });

  it('refuses a file that is not CSV, and one with too many rows, before sending anything', async () => {
    renderDialog();
    choose('devices.xlsx', 'RUT1,00:1E:42:00:00:01', 'application/vnd.ms-excel');
    await screen.findByText('Not a CSV file selected');
    const many = Array.from({ length: 1001 }, (_, i) => `RUT${10000 + i},00:1E:42:00:00:01,7`).join('\n');
    choose('many.csv', many);
    await screen.findByText(
      'The file holds 1001 rows; at most 1000 can be imported at once. Split it into smaller files.',
    );
    expect(screen.getByTestId('import-start')).toHaveProperty('disabled', true);
    expect(posted).toEqual([]);
  });
});
