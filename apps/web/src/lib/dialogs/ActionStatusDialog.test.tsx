import { MantineProvider } from '@mantine/core';
import { act, cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { deviceBatchSource } from '#src/features/devices/action-source';
import { initI18n } from '#src/i18n/i18n';
import { ChannelHub } from '../socket/channel-hub';
import { asConsoleSocket, FakeSocket } from '../socket/fake-socket';
import { ActionStatusDialog } from './ActionStatusDialog';
import type { ActionItem, ActionStatusSource } from './action-status-state';

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
        <ActionStatusDialog source={deviceBatchSource(CHANNEL, { 7: 'Depot router' })} hub={hub} />
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
        <ActionStatusDialog source={deviceBatchSource(CHANNEL)} hub={hub} />
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

/** A rollout step as a feature of its own would publish it (an event the device map does not know). */
type HubStep = { step_id: string; hub: string; state: ActionItem['status']; log?: string };
type HubItem = ActionItem & { hub: string };

function rolloutSource(cancel: (item: HubItem) => Promise<unknown>): ActionStatusSource<HubItem> {
  return {
    channel: 'rollout.12',
    event: {
      name: 'HubRolloutStepped',
      toItem: (step: HubStep) => ({
        id: step.step_id,
        hub: step.hub,
        status: step.state,
        output: step.log ?? null,
      }),
    } as unknown as ActionStatusSource<HubItem>['event'],
    snapshot: async () => [
      { id: 's1', hub: 'Oslo hub', status: 'sent' },
      { id: 's2', hub: 'Bergen hub', status: 'pending' },
    ],
    label: (item) => `${item.hub} · Firmware 7.2`,
    attributes: (item) => ({ 'data-hub': item.hub }),
    cancel,
  };
}

describe("'Action status' from a source of another feature", () => {
  it("shows the source's items, follows its own event to the end, and cancels through the source", async () => {
    const cancel = vi.fn(async () => ({}));
    render(
      <MantineProvider>
        <ActionStatusDialog source={rolloutSource(cancel)} message="2 hubs will upgrade" hub={hub} />
      </MantineProvider>,
    );
    act(() => socket.open());
    expect(socket.subscriptions()).toEqual(['rollout.12']);
    await waitFor(() => expect(screen.getAllByTestId('action-status-item')).toHaveLength(2));
    const [oslo, bergen] = screen.getAllByTestId('action-status-item') as [HTMLElement, HTMLElement];
    expect(oslo.textContent).toContain('Oslo hub · Firmware 7.2');
    expect(oslo.getAttribute('data-hub')).toBe('Oslo hub');
    expect(bergen.getAttribute('data-status')).toBe('pending');
    expect(screen.getByTestId('action-status-channel').textContent).toBe('rollout.12');
    expect(screen.getByTestId('action-status-summary').textContent).toBe('2 hubs will upgrade');

    const step = (payload: HubStep) => act(() => socket.receive('HubRolloutStepped', 'rollout.12', payload));
    await step({ step_id: 's1', hub: 'Oslo hub', state: 'acked' });
    expect(oslo.getAttribute('data-status')).toBe('acked');
    await step({ step_id: 's1', hub: 'Oslo hub', state: 'done', log: 'flashed, rebooting' });
    expect(oslo.getAttribute('data-status')).toBe('done');
    expect(screen.getByTestId('action-status-output').textContent).toBe('flashed, rebooting');
    expect(screen.getByTestId('action-status').getAttribute('data-finished')).toBeNull();

    // Only the pending item offers to cancel, and the source does it (no device URL is called).
    fireEvent.click(screen.getByRole('button', { name: 'Cancel command' }));
    expect(cancel).toHaveBeenCalledWith(expect.objectContaining({ id: 's2', hub: 'Bergen hub' }));
    await step({ step_id: 's2', hub: 'Bergen hub', state: 'cancelled' });
    expect(bergen.getAttribute('data-status')).toBe('cancelled');
    expect(screen.queryByRole('button', { name: 'Cancel command' })).toBeNull();
    expect(screen.getByTestId('action-status').getAttribute('data-finished')).toBe('true');
    expect(screen.getByText('Finished: 1 done, 0 failed, 1 cancelled.')).toBeTruthy();
    expect(requests).toEqual([]);
  });
});
