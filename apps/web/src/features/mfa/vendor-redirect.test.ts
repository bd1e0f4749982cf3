import { afterEach, describe, expect, it, vi } from 'vitest';
import { clientHandlers, type MfaChallenge } from '#src/lib/http/handlers';
import { VENDOR_RETURN_KEY, withVendorRedirect } from './vendor-redirect';

const challenge = (meta: Record<string, unknown>): MfaChallenge => ({
  method: String(meta.mfa_method ?? ''),
  message: 'Second step',
  meta,
  submit: async () => ({}),
});

afterEach(() => {
  clientHandlers.verify = null;
  vi.restoreAllMocks();
});

describe('vendor ID as the second step (product §4)', () => {
  it('an MFA_REQUIRED with authorization_url leaves for the vendor page; codes still go to the dialog', async () => {
    const dialog = vi.fn(async () => 'from dialog');
    clientHandlers.verify = dialog;
    const assign = vi.fn();
    vi.spyOn(window, 'location', 'get').mockReturnValue({ ...window.location, assign } as Location);

    const seen: unknown[] = [];
    await withVendorRedirect(async () => {
      void clientHandlers.verify?.(
        challenge({ mfa_method: 'vendor', authorization_url: 'https://id.vendor.test/auth?x=1' }),
      );
      seen.push(await clientHandlers.verify?.(challenge({ mfa_method: 'totp' })));
    }, '/management/devices');

    expect(assign).toHaveBeenCalledWith('https://id.vendor.test/auth?x=1');
    expect(sessionStorage.getItem(VENDOR_RETURN_KEY)).toBe('/management/devices');
    expect(seen).toEqual(['from dialog']);
    expect(dialog).toHaveBeenCalledTimes(1);
    // The dialog handler is back in place afterwards.
    expect(clientHandlers.verify).toBe(dialog);
  });
});
