import { MantineProvider } from '@mantine/core';
import { act, cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { initI18n } from '../../i18n/i18n';
import { ChannelHub } from '../socket/channel-hub';
import { asConsoleSocket, FakeSocket } from '../socket/fake-socket';
import { ActionStatusDialog } from './ActionStatusDialog';

const BATCH = '3f2c9a4e-8b1d-4c6e-9f0a-1b2c3d4e5f60';
const CHANNEL = `action.${BATCH}`;
let socket: FakeSocket;
let hub: ChannelHub;
let requests: { method: string; url: string }[];
/** The command's state when the dialog reads the batch. */
let snapshot: string;

beforeAll(async () => {
  await initI18n();
});
beforeEach(() => {
  requests = [];
  snapshot = 'sent';
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string, init: RequestInit = {}) => {
      requests.push({ method: init.method ?? 'GET', url });
      if (url === `/api/devices/actions/${BATCH}`) {
        // The snapshot: the command was already sent before the dialog listened.
        const data = [{ id: 'c1', device_id: 7, action: 'cli', status: snapshot, output: null, error: null }];
        return new Response(JSON.stringify({ success: true, data }));
      }
      return new Response(JSON.stringify({ success: true, data: {} }));
    }),
  );
  socket = new FakeSocket();
  hub = new ChannelHub({ createSocket: () => asConsoleSocket(socket), refreshSession: async () => true });
});
afterEach(() => {
  cleanup();
  hub.close();
  vi.unstubAllGlobals();
});

const push = (status: string, extra: Record<string, unknown> = {}) =>
  act(() =>
    socket.receive('DeviceActionUpdated', CHANNEL, {
      batch_id: BATCH,
      command_id: 'c1',
      device_id: 7,
      action: 'cli',
      status,
      at: new Date().toISOString(),
      ...extra,
    }),
  );

describe("'Action status' dialog (product §4)", () => {
  it('starts from the commands read from the API and follows their live steps to the output', async () => {
    render(
      <MantineProvider>
        <ActionStatusDialog channel={CHANNEL} subjects={{ 7: 'Depot router' }} hub={hub} />
      </MantineProvider>,
    );
    act(() => socket.open());
    expect(socket.subscriptions()).toEqual([CHANNEL]);
    const item = await screen.findByTestId('action-status-item');
    expect(item.getAttribute('data-status')).toBe('sent');
    expect(item.textContent).toContain('Depot router');

    await push('acked');
    expect(item.getAttribute('data-status')).toBe('acked');
    await push('done', { output: 'up 3 days, load average: 0.10' });
    expect(item.getAttribute('data-status')).toBe('done');
    expect(screen.getByTestId('action-status-output').textContent).toBe('up 3 days, load average: 0.10');
    expect(screen.getByTestId('action-status').getAttribute('data-finished')).toBe('true');
  });

  it('offers to cancel a pending command', async () => {
    snapshot = 'pending';
    render(
      <MantineProvider>
        <ActionStatusDialog channel={CHANNEL} hub={hub} />
      </MantineProvider>,
    );
    await push('pending');
    const item = await screen.findByTestId('action-status-item');
    await waitFor(() => expect(item.getAttribute('data-status')).toBe('pending'));
    fireEvent.click(screen.getByRole('button', { name: 'Cancel command' }));
    await waitFor(() =>
      expect(requests).toContainEqual({ method: 'POST', url: '/api/devices/commands/c1/cancel' }),
    );
    await push('cancelled');
    expect(item.getAttribute('data-status')).toBe('cancelled');
    expect(screen.queryByRole('button', { name: 'Cancel command' })).toBeNull();
  });
});
