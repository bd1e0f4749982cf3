import { DEFAULT_ROLES } from '@fleetgate/shared/roles';
import type { CurrentUser } from '@fleetgate/shared/schemas/auth';
import { DEFAULT_BRAND } from '@fleetgate/shared/schemas/brand';
import { MantineProvider } from '@mantine/core';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { initI18n } from '#src/i18n/i18n';
import { AccountGates, TOS_FLAG_KEY } from './AccountGates';
import { gatesApply } from './gates-apply';

const role = DEFAULT_ROLES.find((r) => r.name === 'end_user')!;

function userOf(extra: Partial<CurrentUser> = {}): CurrentUser {
  return {
    id: 9,
    username: 'ola',
    email: 'ola@acme.test',
    avatar_url: null,
    company: { id: 7, parent_id: 1, name: 'Acme', level: 2, show_payment: false },
    company_id: 7,
    company_name: 'Acme',
    role: { id: role.id, name: role.name, title: role.title },
    role_id: role.id,
    role_title: role.title,
    tos_accepted: true,
    mfa_type: null,
    exp: 0,
    permissions: [...role.permissions],
    token: { actor: false, actor_user: null },
    impersonation_access_limit: null,
    isImpersonating: false,
    show_payment: false,
    show_payment_control: false,
    country_iso_code: null,
    session: null,
    ...extra,
  };
}

let calls: { url: string; method: string; body: unknown }[];

function renderGates(user: CurrentUser, brand = DEFAULT_BRAND) {
  render(
    <MantineProvider>
      <QueryClientProvider client={new QueryClient()}>
        <AccountGates user={user} brand={brand} />
      </QueryClientProvider>
    </MantineProvider>,
  );
}

beforeAll(async () => {
  await initI18n();
});
beforeEach(() => {
  calls = [];
  localStorage.clear();
  vi.stubGlobal('fetch', async (url: string, init: RequestInit = {}) => {
    calls.push({
      url,
      method: init.method ?? 'GET',
      body: init.body ? JSON.parse(String(init.body)) : undefined,
    });
    return new Response(JSON.stringify({ success: true, data: { tos_accepted: true } }));
  });
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

describe('the modals before work (product §4)', () => {
  it('a default-brand user who has not accepted gets the data agreement with no header; Accept sends PUT /account/user', async () => {
    renderGates(userOf({ tos_accepted: false }));
    const agreement = await screen.findByTestId('data-agreement');
    expect(agreement).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Close' })).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: 'Accept' }));
    await waitFor(() => expect(screen.queryByTestId('data-agreement')).toBeNull());
    expect(calls).toEqual([{ url: '/api/account/user', method: 'PUT', body: { tos_accepted: true } }]);
  });

  it('another brand accepts silently and keeps a local flag', async () => {
    renderGates(userOf({ tos_accepted: false }), { ...DEFAULT_BRAND, default: false });
    await waitFor(() => expect(localStorage.getItem(TOS_FLAG_KEY)).toBe('true'));
    expect(screen.queryByTestId('data-agreement')).toBeNull();
    expect(calls.map((c) => `${c.method} ${c.url}`)).toEqual(['PUT /api/account/user']);
  });

  it("a username equal to the e-mail opens 'Please enter your email address'", async () => {
    renderGates(userOf({ username: 'OLA@acme.test' }));
    expect(await screen.findByText('Please enter your email address')).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Close' })).toBeNull();
  });

  it('the support person acting as the user is never asked', () => {
    renderGates(
      userOf({
        tos_accepted: false,
        username: 'ola@acme.test',
        isImpersonating: true,
        token: { actor: true, actor_user: { id: 1, email: 'admin@fleetgate.test' } },
      }),
    );
    expect(screen.queryByTestId('data-agreement')).toBeNull();
    expect(screen.queryByText('Please enter your email address')).toBeNull();
    expect(calls).toEqual([]);
  });
});

describe('whether the gates load at all', () => {
  it('loads them for an unaccepted agreement or a username that is the e-mail address, never for the support person', () => {
    expect(gatesApply(userOf())).toBe(false);
    expect(gatesApply(userOf({ tos_accepted: false }))).toBe(true);
    expect(gatesApply(userOf({ username: 'Ola@Acme.test' }))).toBe(true);
    expect(gatesApply(userOf({ tos_accepted: false, isImpersonating: true }))).toBe(false);
    expect(gatesApply(userOf({ username: 'ola@acme.test', isImpersonating: true }))).toBe(false);
  });
});
