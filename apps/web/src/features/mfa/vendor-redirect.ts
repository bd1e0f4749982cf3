import { clientHandlers } from '#src/lib/http/handlers';

/** Where the vendor sign-in came from: the callback page returns there (session storage). */
export const VENDOR_RETURN_KEY = 'fleetgate.vendorReturn';

/** Sends the browser to the vendor identity service; the page unloads, so it never resolves. */
export function goToVendor(authorizationUrl: string, returnTo?: string | null): Promise<never> {
  if (returnTo) sessionStorage.setItem(VENDOR_RETURN_KEY, returnTo);
  else sessionStorage.removeItem(VENDOR_RETURN_KEY);
  window.location.assign(authorizationUrl);
  return new Promise<never>(() => {});
}

/**
 * Runs a request whose second step may be the vendor identity service: an MFA_REQUIRED
 * carrying `authorization_url` leaves for the vendor's sign-in page (its callback finishes
 * the sign-in) instead of the code dialog; codes still go through the dialog (product §4).
 */
export async function withVendorRedirect<T>(run: () => Promise<T>, returnTo?: string | null): Promise<T> {
  const dialog = clientHandlers.verify;
  clientHandlers.verify = (challenge) => {
    const url = challenge.meta.authorization_url;
    if (typeof url === 'string' && url.startsWith('http')) return goToVendor(url, returnTo);
    if (dialog) return dialog(challenge);
    return Promise.reject(new Error(challenge.message));
  };
  try {
    return await run();
  } finally {
    clientHandlers.verify = dialog;
  }
}
