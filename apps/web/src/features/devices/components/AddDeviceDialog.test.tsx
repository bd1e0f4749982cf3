import { PERMISSIONS } from '@fleetgate/shared/permissions';
import type { CurrentUser } from '@fleetgate/shared/schemas/auth';
import { DEFAULT_BRAND } from '@fleetgate/shared/schemas/brand';
import { MantineProvider } from '@mantine/core';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { initI18n } from '#src/i18n/i18n';
import { WindowsProvider } from '#src/lib/dialogs/WindowsProvider';
import { createWindowsStore } from '#src/lib/dialogs/windows-store';
import { SessionProvider } from '#src/lib/session/session-context';
import { AddDeviceDialog } from './FormDialogs';

const user = {
  id: 1,
  username: 'admin',
  email: 'admin@x.test',
  avatar_url: null,
  company: { id: 1, parent_id: null, name: 'Root', level: 1, show_payment: false },
  company_id: 1,
  company_name: 'Root',
  role: { id: 1, name: 'super_admin', title: 'System Administrator' },
  role_id: 1,
  role_title: 'System Administrator',
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
  session: null,
} as CurrentUser;

let bodies: unknown[];

beforeAll(async () => {
  await initI18n();
  // The description's autosize textarea listens to font loading, which jsdom lacks.
  if (!('fonts' in document))
    Object.defineProperty(document, 'fonts', {
      configurable: true,
      value: { addEventListener() {}, removeEventListener() {} },
    });
});
beforeEach(() => {
  bodies = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (_url: string, init: RequestInit) => {
      bodies.push(JSON.parse(String(init.body)));
      return new Response(JSON.stringify({ success: true, data: { id: 9 } }));
    }),
  );
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

function renderDialog() {
  render(
    <MantineProvider>
      <QueryClientProvider client={new QueryClient()}>
        <SessionProvider user={user} brand={DEFAULT_BRAND}>
          <MemoryRouter>
            <WindowsProvider store={createWindowsStore()}>
              <AddDeviceDialog />
            </WindowsProvider>
          </MemoryRouter>
        </SessionProvider>
      </QueryClientProvider>
    </MantineProvider>,
  );
}

/** Types one character at a time, as a person does: each keystroke goes through the mask. */
function type(input: HTMLInputElement, text: string) {
  for (const ch of text) fireEvent.change(input, { target: { value: input.value + ch } });
}

describe("'Add device': the MAC field's mask (product §5: F hex, upper-cased)", () => {
  it("formats and upper-cases what is typed: '001e42aabbcc' shows '00:1E:42:AA:BB:CC'", () => {
    renderDialog();
    const mac = screen.getByLabelText(/^MAC address/) as HTMLInputElement;
    type(mac, '001e42aabbcc');
    expect(mac.value).toBe('00:1E:42:AA:BB:CC');
  });

  it('drops what is no hex digit and stops at six pairs, pasted or typed', () => {
    renderDialog();
    const mac = screen.getByLabelText(/^MAC address/) as HTMLInputElement;
    fireEvent.change(mac, { target: { value: '00-1e-42-zz-aa-bb-cc-dd' } });
    expect(mac.value).toBe('00:1E:42:AA:BB:CC');
  });

  it('sends the formatted address', async () => {
    renderDialog();
    fireEvent.change(screen.getByLabelText(/^Serial number/), { target: { value: '5500000009' } });
    type(screen.getByLabelText(/^MAC address/) as HTMLInputElement, '001e42aabbcc');
    fireEvent.click(screen.getByRole('button', { name: 'Add' }));
    await waitFor(() => expect(bodies).toEqual([{ serial: '5500000009', mac: '00:1E:42:AA:BB:CC' }]));
  });
});
