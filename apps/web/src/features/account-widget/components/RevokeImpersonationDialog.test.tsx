import { MantineProvider } from '@mantine/core';
import { Notifications } from '@mantine/notifications';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { initI18n } from '#src/i18n/i18n';
import { ImpersonationStatus } from './ImpersonationStatus';
import { REVOKE_IMPERSONATION_PATH, RevokeImpersonationDialog } from './RevokeImpersonationDialog';

type Call = { url: string; method: string };
let calls: Call[];
let respond: () => Response;

beforeAll(async () => {
  await initI18n();
});
beforeEach(() => {
  calls = [];
  respond = () => new Response(JSON.stringify({ success: true, data: null }));
  vi.stubGlobal('fetch', async (url: string, init: RequestInit) => {
    calls.push({ url, method: init.method ?? 'GET' });
    return respond();
  });
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

function renderDialog(reload: () => void, onClose = () => {}) {
  return render(
    <MantineProvider>
      <Notifications />
      <QueryClientProvider client={new QueryClient()}>
        <RevokeImpersonationDialog opened onClose={onClose} reload={reload} />
      </QueryClientProvider>
    </MantineProvider>,
  );
}

describe('impersonation revoke (product §4, §8)', () => {
  it('shows until when access lasts and offers to revoke it', () => {
    const onRevoke = vi.fn();
    render(
      <MantineProvider>
        <ImpersonationStatus until="2099-01-02T03:04:05Z" onRevoke={onRevoke} />
      </MantineProvider>,
    );
    expect(screen.getByTestId('impersonation-status').textContent).toMatch(/2099-01-0\d \d\d:\d4:05/);
    fireEvent.click(screen.getByRole('button', { name: 'Revoke access' }));
    expect(onRevoke).toHaveBeenCalledOnce();
  });

  it("asks 'Revoke impersonation access?', posts the revoke and reloads the page", async () => {
    const reload = vi.fn();
    renderDialog(reload);
    await screen.findByText('Revoke impersonation access?');
    fireEvent.click(screen.getByRole('button', { name: 'Revoke' }));
    await waitFor(() => expect(reload).toHaveBeenCalledOnce());
    expect(calls).toEqual([{ url: `/api${REVOKE_IMPERSONATION_PATH}`, method: 'POST' }]);
  });

  it('does nothing when cancelled', async () => {
    const reload = vi.fn();
    const onClose = vi.fn();
    renderDialog(reload, onClose);
    fireEvent.click(await screen.findByRole('button', { name: 'Cancel' }));
    expect(onClose).toHaveBeenCalledOnce();
    expect(calls).toHaveLength(0);
    expect(reload).not.toHaveBeenCalled();
  });

  it('a failure shows the response message as a toast and does not reload', async () => {
    respond = () =>
      new Response(
        JSON.stringify({
          success: false,
          errors: [{ code: 'CONFLICT', message: 'Impersonation access has already ended' }],
        }),
        { status: 409 },
      );
    const reload = vi.fn();
    const onClose = vi.fn();
    renderDialog(reload, onClose);
    fireEvent.click(await screen.findByRole('button', { name: 'Revoke' }));
    await screen.findByText('Impersonation access has already ended');
    expect(reload).not.toHaveBeenCalled();
    expect(onClose).toHaveBeenCalled();
  });
});
