import { MantineProvider } from '@mantine/core';
import { Notifications } from '@mantine/notifications';
import { act, cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { initI18n } from '#src/i18n/i18n';
import { ApiError, CancelledError } from '../http/errors';
import { clientHandlers } from '../http/handlers';
import { mfaKind } from '../http/verification';
import { confirm } from './confirm';
import { WindowsProvider } from './WindowsProvider';
import { createWindowsStore, type WindowsStore } from './windows-store';

let store: WindowsStore;
let posted: { url: string; body: unknown }[];
let answer: () => Response;

beforeAll(async () => {
  await initI18n();
});
beforeEach(() => {
  store = createWindowsStore();
  posted = [];
  answer = () => new Response(JSON.stringify({ success: true, data: { confirmed: true } }), { status: 200 });
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string, init: RequestInit) => {
      posted.push({ url, body: JSON.parse(String(init.body)) });
      return answer();
    }),
  );
  render(
    <MantineProvider>
      <Notifications />
      <WindowsProvider store={store}>
        <div />
      </WindowsProvider>
    </MantineProvider>,
  );
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

const failed = (status: number, code: string, message: string, source?: string) =>
  new Response(
    JSON.stringify({ success: false, errors: [{ code, message, ...(source ? { source } : {}) }] }),
    {
      status,
    },
  );

describe('password prompt for HTTP 423 (product §4, §5, §8)', () => {
  it('shows the server message, requires input, keeps CONFIRMATION_FAILED under the field, resolves on success', async () => {
    let result: Promise<boolean> | undefined;
    act(() => {
      result = clientHandlers.confirmPassword!('Please confirm your password to continue');
    });
    await screen.findByText('Please confirm your password to continue');
    expect(screen.getByText('Confirm your password')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Confirm' }));
    await screen.findByText('Prompt input is required');
    expect(posted).toEqual([]);

    answer = () => failed(422, 'CONFIRMATION_FAILED', 'Wrong password', 'password');
    fireEvent.change(screen.getByLabelText(/Password/), { target: { value: 'nope' } });
    fireEvent.click(screen.getByRole('button', { name: 'Confirm' }));
    await screen.findByText('Wrong password');
    expect(store.isOpen('password-confirmation')).toBe(true);
    expect(posted.at(-1)).toEqual({ url: '/api/password-confirmation', body: { password: 'nope' } });

    answer = () =>
      new Response(JSON.stringify({ success: true, data: { confirmed: true } }), { status: 200 });
    fireEvent.change(screen.getByLabelText(/Password/), { target: { value: 'right' } });
    fireEvent.click(screen.getByRole('button', { name: 'Confirm' }));
    await expect(result).resolves.toBe(true);
    expect(store.isOpen('password-confirmation')).toBe(false);
  });

  it('resolves false when the prompt is closed', async () => {
    let result: Promise<boolean> | undefined;
    act(() => {
      result = clientHandlers.confirmPassword!('Confirm');
    });
    await screen.findByRole('button', { name: 'Cancel' });
    fireEvent.click(screen.getByRole('button', { name: 'Cancel' }));
    await expect(result).resolves.toBe(false);
  });
});

describe('second-step verification (product §4, §8, §9)', () => {
  it("asks for the e-mail code in 'Enter authentication code', stays open on CONFIRMATION_FAILED, closes on success", async () => {
    const submit = vi
      .fn<(code: string) => Promise<unknown>>()
      .mockRejectedValueOnce(
        new ApiError(422, '', [{ code: 'CONFIRMATION_FAILED', message: 'Invalid code' }]),
      )
      .mockResolvedValueOnce({ success: true, data: 'done' });
    let result: Promise<unknown> | undefined;
    act(() => {
      result = clientHandlers.verify!({ method: 'email', message: '', meta: {}, submit });
    });
    await screen.findByText('Enter authentication code');
    fireEvent.change(screen.getByLabelText(/Code/), { target: { value: '123456' } });
    fireEvent.click(screen.getByRole('button', { name: 'Confirm' }));
    await screen.findByText('Invalid code');
    expect(store.isOpen('verification')).toBe(true);
    fireEvent.change(screen.getByLabelText(/Code/), { target: { value: '654321' } });
    fireEvent.click(screen.getByRole('button', { name: 'Confirm' }));
    await expect(result).resolves.toEqual({ success: true, data: 'done' });
    expect(submit.mock.calls.map((c) => c[0])).toEqual(['123456', '654321']);
    expect(store.isOpen('verification')).toBe(false);
  });

  it('a resent request that asks again keeps one dialog open and takes the new session', async () => {
    const second = vi.fn(async () => 'second session accepted');
    // The client resends with the code; the server asks again (MFA_REQUIRED), which calls verify again.
    const first = vi.fn(() =>
      clientHandlers.verify!({
        method: 'email',
        message: 'Code expired, we sent a new one',
        meta: {},
        submit: second,
      }),
    );
    let result: Promise<unknown> | undefined;
    act(() => {
      result = clientHandlers.verify!({
        method: 'email',
        message: 'Enter the code',
        meta: {},
        submit: first,
      });
    });
    await screen.findByText('Enter authentication code');
    fireEvent.change(screen.getByLabelText(/Code/), { target: { value: '111111' } });
    fireEvent.click(screen.getByRole('button', { name: 'Confirm' }));
    await screen.findByText('Code expired, we sent a new one');
    expect(screen.getAllByText('Enter authentication code')).toHaveLength(1);
    fireEvent.change(screen.getByLabelText(/Code/), { target: { value: '222222' } });
    fireEvent.click(screen.getByRole('button', { name: 'Confirm' }));
    await expect(result).resolves.toBe('second session accepted');
    expect(second).toHaveBeenCalledWith('222222');
  });

  it('closes and rejects on any other error', async () => {
    const error = new ApiError(403, '', [{ code: 'FORBIDDEN', message: 'No' }]);
    let result: Promise<unknown> | undefined;
    act(() => {
      result = clientHandlers.verify!({
        method: 'totp',
        message: 'Code please',
        meta: {},
        submit: () => Promise.reject(error),
      });
    });
    await screen.findByText('TOTP verification');
    fireEvent.change(screen.getByLabelText(/Code/), { target: { value: '1' } });
    fireEvent.click(screen.getByRole('button', { name: 'Confirm' }));
    await expect(result).rejects.toBe(error);
    await waitFor(() => expect(store.isOpen('verification')).toBe(false));
  });

  it("says 'Failed to connect to server' when there is neither a method nor a message", async () => {
    await expect(
      clientHandlers.verify!({ method: '', message: '', meta: {}, submit: () => Promise.resolve(null) }),
    ).rejects.toThrow('Failed to connect to server');
    await screen.findByText('Failed to connect to server');
  });

  it('names the dialog for each method and rejects with a cancel when closed', async () => {
    expect([mfaKind('email'), mfaKind('totp'), mfaKind('oidc'), mfaKind('vendor')]).toEqual([
      'email',
      'totp',
      'vendor',
      'vendor',
    ]);
    let result: Promise<unknown> | undefined;
    act(() => {
      result = clientHandlers.verify!({
        method: 'vendor',
        message: 'x',
        meta: {},
        submit: () => Promise.resolve(1),
      });
    });
    await screen.findByText('Vendor ID verification');
    act(() => store.close('verification'));
    await expect(result).rejects.toBeInstanceOf(CancelledError);
  });
});

describe('confirm dialog (product §9 default labels)', () => {
  it('answers true on Confirm and false on Escape', async () => {
    let answer1: Promise<boolean> | undefined;
    act(() => {
      answer1 = confirm({ message: 'Sure?' }, store);
    });
    await screen.findByText('Sure?');
    fireEvent.click(screen.getByRole('button', { name: 'Confirm' }));
    await expect(answer1).resolves.toBe(true);

    let answer2: Promise<boolean> | undefined;
    act(() => {
      answer2 = confirm({ message: 'Really?' }, store);
    });
    await screen.findByRole('button', { name: 'Cancel' });
    fireEvent.keyDown(window, { key: 'Escape' });
    await expect(answer2).resolves.toBe(false);
  });
});
