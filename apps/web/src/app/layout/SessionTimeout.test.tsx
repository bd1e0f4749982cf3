import { PERMISSIONS } from '@fleetgate/shared/permissions';
import type { CurrentUser } from '@fleetgate/shared/schemas/auth';
import { DEFAULT_BRAND } from '@fleetgate/shared/schemas/brand';
import { MantineProvider } from '@mantine/core';
import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { initI18n } from '#src/i18n/i18n';
import { SessionProvider } from '#src/lib/session/session-context';
import { SessionTimeout } from './SessionTimeout';

const signOut = vi.fn(async (_reason?: string) => {});
vi.mock('#src/features/account/sign-out', () => ({ signOut: (reason?: string) => signOut(reason) }));

const MINUTE = 60_000;

function userWith(session: CurrentUser['session']): CurrentUser {
  return {
    id: 5,
    username: 'someone',
    email: 'someone@fleetgate.test',
    avatar_url: null,
    company: { id: 7, parent_id: 1, name: 'Acme', level: 2, show_payment: false },
    company_id: 7,
    company_name: 'Acme',
    role: { id: 2, name: 'admin', title: 'Administrator' },
    role_id: 2,
    role_title: 'Administrator',
    tos_accepted: true,
    mfa_type: null,
    exp: 0,
    permissions: [...PERMISSIONS],
    token: { actor: false, actor_user: null },
    impersonation_access_limit: null,
    isImpersonating: false,
    show_payment: false,
    show_payment_control: false,
    country_iso_code: null,
    session,
  };
}

function renderTimeout(session: CurrentUser['session']) {
  render(
    <MantineProvider>
      <SessionProvider user={userWith(session)} brand={DEFAULT_BRAND}>
        <SessionTimeout />
      </SessionProvider>
    </MantineProvider>,
  );
}

// Async, so that the warning's window, loaded when first due, is drawn within the step.
const advance = (ms: number) =>
  act(async () => {
    vi.advanceTimersByTime(ms);
  });

let requested: string[];
beforeAll(async () => {
  await initI18n();
  // The window's module, fetched at once here: the clock is fake while the tests run.
  await import('./SessionWarning');
});
beforeEach(() => {
  vi.useFakeTimers();
  window.localStorage.clear();
  signOut.mockClear();
  requested = [];
  vi.stubGlobal('fetch', async (url: string) => {
    requested.push(url);
    return new Response(JSON.stringify({ success: true, data: {} }));
  });
});
afterEach(() => {
  cleanup();
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

describe('session limits in the console (ASVS V3.3.2)', () => {
  const farEnd = () => ({
    expires_at: new Date(Date.now() + 12 * 60 * MINUTE).toISOString(),
    idle_minutes: 30,
  });

  it('warns two minutes before an idle sign-out; staying tells the server and closes the warning', async () => {
    renderTimeout(farEnd());
    await advance(27 * MINUTE);
    expect(screen.queryByTestId('session-timeout')).toBeNull();
    await advance(MINUTE + 1000);
    await advance(500);
    expect(screen.getByText(/you will be signed out in 1:59/i)).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Stay signed in' }));
    await advance(1000);
    expect(screen.queryByText(/you will be signed out/i)).toBeNull();
    expect(requested).toContain('/api/user');
    expect(signOut).not.toHaveBeenCalled();
  });

  it('signs an idle user out when the time is up, saying why', async () => {
    renderTimeout(farEnd());
    await advance(30 * MINUTE + 1000);
    expect(signOut).toHaveBeenCalledWith('idle');
  });

  it('use of the console (a key, a click) keeps the user signed in, and another tab’s use counts too', async () => {
    renderTimeout(farEnd());
    for (let i = 0; i < 3; i++) {
      await advance(20 * MINUTE);
      fireEvent.keyDown(window, { key: 'a' });
    }
    await advance(20 * MINUTE);
    window.localStorage.setItem('fg.lastActivity', String(Date.now()));
    await advance(20 * MINUTE);
    expect(signOut).not.toHaveBeenCalled();
    // The server heard of it although nothing else called it.
    expect(requested.filter((url) => url === '/api/user').length).toBeGreaterThan(0);
  });

  it('warns five minutes before the sign-in ends whatever happens, then signs out', async () => {
    renderTimeout({ expires_at: new Date(Date.now() + 10 * MINUTE).toISOString(), idle_minutes: 30 });
    await advance(5 * MINUTE + 1000);
    await advance(500);
    expect(screen.getByText(/every sign-in ends after a few hours/i)).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'OK' }));
    await advance(5 * MINUTE);
    expect(signOut).toHaveBeenCalledWith('ended');
  });

  it('shows nothing for a session without limits (an access token)', async () => {
    renderTimeout(null);
    await advance(60 * MINUTE);
    expect(screen.queryByTestId('session-timeout')).toBeNull();
    expect(signOut).not.toHaveBeenCalled();
  });
});
