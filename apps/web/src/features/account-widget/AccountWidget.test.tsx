import { PERMISSIONS } from '@fleetgate/shared/permissions';
import { DEFAULT_ROLES } from '@fleetgate/shared/roles';
import type { CurrentUser } from '@fleetgate/shared/schemas/auth';
import { DEFAULT_BRAND } from '@fleetgate/shared/schemas/brand';
import { createTheme, MantineProvider, Menu } from '@mantine/core';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { initI18n } from '#src/i18n/i18n';
import { SessionProvider } from '#src/lib/session/session-context';
import { AccountWidget } from './AccountWidget';

const role = (name: string) => DEFAULT_ROLES.find((r) => r.name === name)!;

function userOf(roleName: string, extra: Partial<CurrentUser> = {}): CurrentUser {
  const r = role(roleName);
  return {
    id: 5,
    username: 'someone',
    email: 'someone@fleetgate.test',
    avatar_url: null,
    company: { id: 7, parent_id: 1, name: 'Acme', level: 2, show_payment: false },
    company_id: 7,
    company_name: 'Acme',
    role: { id: r.id, name: r.name, title: r.title },
    role_id: r.id,
    role_title: r.title,
    tos_accepted: true,
    mfa_type: null,
    exp: 0,
    permissions: [...r.permissions],
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

/** jsdom lays nothing out, so floating-ui would think the menu's target is hidden and hide the menu. */
const theme = createTheme({ components: { Menu: Menu.extend({ defaultProps: { hideDetached: false } }) } });

let requested: string[];
let summary: Response | null;

function renderWidget(user: CurrentUser) {
  render(
    <MantineProvider theme={theme}>
      <QueryClientProvider client={new QueryClient()}>
        <SessionProvider user={user} brand={DEFAULT_BRAND}>
          <MemoryRouter>
            <AccountWidget />
          </MemoryRouter>
        </SessionProvider>
      </QueryClientProvider>
    </MantineProvider>,
  );
  fireEvent.click(screen.getByTestId('account-widget'));
}

beforeAll(async () => {
  await initI18n();
});
beforeEach(() => {
  requested = [];
  summary = null;
  vi.stubGlobal('fetch', async (url: string) => {
    requested.push(url);
    if (url === '/api/credits/summary' && summary) return summary;
    if (url.startsWith('/api/companies/'))
      return new Response(JSON.stringify({ success: true, data: { id: 7, name: 'Acme' } }));
    return new Response(
      JSON.stringify({ success: false, errors: [{ code: 'NOT_FOUND', message: 'Not found' }] }),
      {
        status: 404,
      },
    );
  });
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

describe('account widget (product §2 Header widgets 3, §6 Gating)', () => {
  it('shows e-mail, company link and role; the role opens the permissions of the role', async () => {
    const user = userOf('admin');
    renderWidget(user);
    expect((await screen.findByTestId('account-email')).textContent).toBe(user.email);
    const company = screen.getByTestId('account-company');
    expect(company.getAttribute('href')).toBe('/companies/7');
    expect(company.textContent).toBe('#7 Acme');
    fireEvent.click(screen.getByTestId('account-role'));
    const table = await screen.findByTestId('permissions-table');
    expect(table.querySelectorAll('tbody tr')).toHaveLength(PERMISSIONS.length);
    expect(table.querySelectorAll('tbody tr[data-granted]')).toHaveLength(
      PERMISSIONS.filter((p) => role('admin').permissions.includes(p)).length,
    );
  });

  it('offers Activate code only with activate_credit_transfer_codes, and the changelog with the version', async () => {
    renderWidget(userOf('end_user'));
    expect(await screen.findByRole('menuitem', { name: 'Activate code' })).toBeTruthy();
    expect(screen.getByRole('menuitem', { name: /Changelog/ }).textContent).toContain('5.14.0');
    cleanup();
    renderWidget(userOf('read_only'));
    await screen.findByTestId('account-email');
    expect(screen.queryByRole('menuitem', { name: 'Activate code' })).toBeNull();
  });

  it("offers 'Move credits' (product §2 Header widgets: Modals) only to holders of manage_credits", async () => {
    renderWidget(userOf('admin'));
    expect(await screen.findByRole('menuitem', { name: 'Move credits' })).toBeTruthy();
    cleanup();
    renderWidget(userOf('end_user'));
    await screen.findByTestId('account-email');
    expect(screen.queryByRole('menuitem', { name: 'Move credits' })).toBeNull();
  });

  it('shows the company as plain text without view_companies, and no logout-and-cancel unless impersonating', async () => {
    renderWidget(userOf('read_only'));
    const company = await screen.findByTestId('account-company');
    expect(company.getAttribute('href')).toBeNull();
    expect(screen.queryByRole('menuitem', { name: 'Logout and cancel impersonation' })).toBeNull();
    cleanup();
    renderWidget(userOf('admin', { isImpersonating: true }));
    expect(await screen.findByRole('menuitem', { name: 'Logout and cancel impersonation' })).toBeTruthy();
  });

  it('says when the summary read fails, and shows the counts when it answers', async () => {
    renderWidget(userOf('admin'));
    await screen.findByTestId('account-email');
    await vi.waitFor(() => expect(requested).toContain('/api/credits/summary'));
    // product §8: a failed read shows its first error message, never an empty or missing section.
    expect((await screen.findByTestId('resource-summary-error')).textContent).toBe('Not found');
    cleanup();
    summary = new Response(
      JSON.stringify({
        success: true,
        data: {
          credits: {
            left: [
              { credit_type: 1, credit_type_name: 'Device credit', credits_left: 2 },
              { credit_type: 1, credit_type_name: 'Device credit', credits_left: 3 },
            ],
          },
        },
      }),
    );
    // Another user id keeps the widget's 10 s cache out of the way.
    renderWidget(userOf('end_user'));
    const section = await screen.findByTestId('resource-summary');
    expect(section.querySelector('[data-credit-type="1"]')?.textContent).toBe('Device credit5');
  });

  it('loads no company data nor summary for users of company 0', async () => {
    renderWidget(userOf('admin', { company_id: 0 }));
    await screen.findByTestId('account-email');
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(requested).toEqual([]);
  });

  it('shows impersonation access only while it lasts', async () => {
    renderWidget(userOf('admin', { impersonation_access_limit: '2000-01-01T00:00:00Z' }));
    await screen.findByTestId('account-email');
    expect(screen.queryByTestId('impersonation-status')).toBeNull();
    cleanup();
    renderWidget(userOf('admin', { impersonation_access_limit: '2999-01-01T00:00:00Z' }));
    expect(await screen.findByTestId('impersonation-status')).toBeTruthy();
  });
});
