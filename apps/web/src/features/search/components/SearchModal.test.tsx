import { DEFAULT_ROLES } from '@fleetgate/shared/roles';
import type { CurrentUser } from '@fleetgate/shared/schemas/auth';
import { DEFAULT_BRAND } from '@fleetgate/shared/schemas/brand';
import { MantineProvider } from '@mantine/core';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import i18next from 'i18next';
import { MemoryRouter } from 'react-router';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { initI18n } from '#src/i18n/i18n';
import { SessionProvider } from '#src/lib/session/session-context';
import { SEARCH_SELECTION_KEY } from '../hooks/useSearchSelection';
import { SEARCH_ENDPOINTS } from '../registry';
import { SearchModal } from './SearchModal';

const superAdmin = DEFAULT_ROLES.find((r) => r.name === 'super_admin')!;

function userWith(permissions: readonly string[]): CurrentUser {
  return {
    id: 1,
    username: 'admin',
    email: 'admin@fleetgate.test',
    avatar_url: null,
    company: { id: 1, parent_id: null, name: 'Fleetgate', level: 1, show_payment: false },
    company_id: 1,
    company_name: 'Fleetgate',
    role: { id: superAdmin.id, name: superAdmin.name, title: superAdmin.title },
    role_id: superAdmin.id,
    role_title: superAdmin.title,
    tos_accepted: true,
    mfa_type: null,
    exp: 0,
    permissions: [...permissions],
    token: { actor: false, actor_user: null },
    impersonation_access_limit: null,
    isImpersonating: false,
    show_payment: false,
    show_payment_control: false,
    country_iso_code: null,
    session: null,
  };
}

type Hit = { id: number; name?: string; email?: string };
let answers: Record<string, { data: Hit[]; total: number }>;
let requests: URL[];

function renderModal(permissions: readonly string[] = superAdmin.permissions) {
  return render(
    <MantineProvider>
      <QueryClientProvider client={new QueryClient()}>
        <SessionProvider user={userWith(permissions)} brand={DEFAULT_BRAND}>
          <MemoryRouter>
            <SearchModal onClose={() => {}} />
          </MemoryRouter>
        </SessionProvider>
      </QueryClientProvider>
    </MantineProvider>,
  );
}

const type = (text: string) =>
  fireEvent.change(screen.getByTestId('search-input'), { target: { value: text } });
const advance = (ms: number) => act(() => vi.advanceTimersByTimeAsync(ms));

beforeAll(async () => {
  await initI18n();
});
beforeEach(() => {
  localStorage.clear();
  requests = [];
  answers = { '/api/companies': { data: [], total: 0 }, '/api/users': { data: [], total: 0 } };
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
  vi.stubGlobal('fetch', async (url: string) => {
    const parsed = new URL(url, 'http://console');
    requests.push(parsed);
    const answer = answers[parsed.pathname] ?? { data: [], total: 0 };
    return new Response(JSON.stringify({ success: true, data: answer.data, meta: { total: answer.total } }));
  });
});
afterEach(() => {
  cleanup();
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

describe('global search (product §2, §9)', () => {
  it("says 'Type to start searching' before anything is typed", () => {
    renderModal();
    expect(screen.getByTestId('search-message').textContent).toBe('Type to start searching');
    expect(requests).toHaveLength(0);
  });

  it('waits for a 500 ms pause in typing, then asks every chosen endpoint once', async () => {
    renderModal();
    type('a');
    await advance(200);
    type('ac');
    await advance(200);
    type('acme');
    await advance(499);
    expect(requests).toHaveLength(0);
    await advance(1);
    await advance(0);
    expect(requests.map((u) => u.pathname).sort()).toEqual(
      SEARCH_ENDPOINTS.map((e) => `/api${e.path}`).sort(),
    );
    expect(requests.every((u) => u.searchParams.get('q') === 'acme')).toBe(true);
  });

  it("groups results with counts, '10+' above 10, and a 'View in table' button per group", async () => {
    answers['/api/companies'] = {
      data: Array.from({ length: 10 }, (_, i) => ({ id: i + 1, name: `Acme ${i + 1}` })),
      total: 25,
    };
    answers['/api/users'] = {
      data: [{ id: 7, email: 'acme.admin@fleetgate.test', name: 'acme.admin' }],
      total: 1,
    };
    renderModal();
    type('acme');
    await advance(500);
    await advance(0);
    const companies = screen.getByTestId('search-group-companies');
    const users = screen.getByTestId('search-group-users');
    expect(companies.querySelector('[data-testid="search-group-count"]')?.textContent).toBe('10+');
    expect(users.querySelector('[data-testid="search-group-count"]')?.textContent).toBe('1');
    expect(companies.querySelectorAll('[data-testid="search-result"]')).toHaveLength(10);
    expect(users.textContent).toContain('acme.admin@fleetgate.test');
    // Groups with hits only: companies and users.
    expect(screen.getAllByRole('button', { name: /View .* in table/ })).toHaveLength(2);
  });

  it("says 'No results found' when no chosen endpoint has a hit", async () => {
    renderModal();
    type('nothing-like-this');
    await advance(500);
    await advance(0);
    expect(screen.getByTestId('search-message').textContent).toBe('No results found');
  });

  it("says 'No search criteria selected' when every endpoint is unchecked, and keeps that choice", async () => {
    renderModal();
    for (const endpoint of SEARCH_ENDPOINTS) {
      fireEvent.click(screen.getByRole('checkbox', { name: i18next.t(`search:${endpoint.labelKey}`) }));
    }
    expect(screen.getByTestId('search-message').textContent).toBe('No search criteria selected');
    expect(JSON.parse(localStorage.getItem(SEARCH_SELECTION_KEY) ?? 'null')).toEqual([]);
    type('acme');
    await advance(600);
    expect(requests).toHaveLength(0);
  });

  it('offers only the endpoints the user may read', () => {
    const guest = DEFAULT_ROLES.find((r) => r.name === 'read_only')!;
    renderModal(guest.permissions);
    expect(screen.queryByRole('checkbox', { name: 'Companies' })).toBeNull();
    expect(screen.getByRole('checkbox', { name: 'Users' })).toBeTruthy();
  });
});
