import { BRAND_DEFAULTS, type BrandSettings } from '@fleetgate/shared/brand';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { contrast } from '#src/lib/colour';
import { clientHandlers } from '#src/lib/http/handlers';
import { verifyThrough } from '#src/lib/http/verification';
import { wearBrand } from './look';
import { renderSignIn } from './page';
import { t } from './texts';
import { openVerificationDialog } from './verification-dialog';

type Call = { url: string; body: Record<string, unknown> | undefined };
let calls: Call[];
let answers: Record<string, (call: Call) => Response>;
let assign: ReturnType<typeof vi.fn>;

const json = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
const refused = (status: number, code: string, message: string, meta?: Record<string, unknown>) =>
  json(status, { success: false, errors: [{ code, message }], ...(meta ? { meta } : {}) });

function visit(search = '', brand: BrandSettings = BRAND_DEFAULTS): HTMLElement {
  vi.spyOn(window, 'location', 'get').mockReturnValue({
    ...window.location,
    origin: 'http://console.test',
    search,
    assign,
  } as Location);
  const root = document.createElement('div');
  document.body.replaceChildren(root);
  renderSignIn(root, brand);
  return root;
}

/** The input a label names, as a person finds it. */
function input(label: string): HTMLInputElement {
  const named = [...document.querySelectorAll('label')].find((l) => l.textContent === label);
  return document.getElementById(named?.htmlFor ?? '') as HTMLInputElement;
}

function type(label: string, value: string): void {
  const field = input(label);
  field.value = value;
  field.dispatchEvent(new Event('input'));
}

/** Fills the form as a person would and presses 'Sign in'. */
function signInWith(email = 'admin@fleetgate.test', password = 'secret-password'): void {
  type('Email', email);
  type('Password', password);
  signInButton().click();
}

const signInButton = () => [...document.querySelectorAll('button')].find((b) => b.textContent === 'Sign in')!;
const until = (check: () => unknown) => vi.waitFor(() => expect(check()).toBeTruthy());

beforeEach(() => {
  calls = [];
  assign = vi.fn();
  answers = { '/api/auth/oidc': () => json(200, { success: true, data: { enabled: false } }) };
  vi.stubGlobal('fetch', async (url: string, init: RequestInit) => {
    const call = { url, body: init.body ? JSON.parse(String(init.body)) : undefined };
    calls.push(call);
    const answer = answers[url];
    return answer ? answer(call) : json(404, { success: false, errors: [] });
  });
  // jsdom has no modal dialogs: open and close are enough for the flow.
  HTMLDialogElement.prototype.showModal = function showModal(this: HTMLDialogElement) {
    this.open = true;
  };
  HTMLDialogElement.prototype.close = function close(this: HTMLDialogElement) {
    this.open = false;
    this.dispatchEvent(new Event('close'));
  };
  clientHandlers.verify = verifyThrough(openVerificationDialog, () => new Error('unanswerable'));
});
afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
  clientHandlers.verify = null;
});

describe('the sign-in page (product §4, §5)', () => {
  it("wears the host's brand: its name in the heading, its full name under it, its logo", () => {
    visit('', {
      ...BRAND_DEFAULTS,
      default: false,
      app_name: 'Acme',
      full_app_name: 'Acme Fleet',
      logo_vector: '/brand/logo.svg',
    });
    expect(document.querySelector('h1')?.textContent).toBe('Sign in to Acme');
    expect(document.querySelector('.head .dimmed')?.textContent).toBe('Acme Fleet');
    expect(document.querySelector('.head img')?.getAttribute('src')).toBe('/brand/logo.svg');
    expect(document.querySelector('form')?.getAttribute('aria-label')).toBe('Sign in to Acme');
  });

  it('a brand name is text, never markup', () => {
    visit('', { ...BRAND_DEFAULTS, app_name: '<img src=x onerror=alert(1)>' });
    expect(document.querySelector('h1 img')).toBeNull();
    expect(document.querySelector('h1')?.textContent).toBe('Sign in to <img src=x onerror=alert(1)>');
  });

  it('checks the fields with the shared rules and sends nothing while they fail', async () => {
    visit();
    type('Email', 'not-an-email');
    signInButton().click();
    await until(() => document.getElementById('email-error')?.textContent);
    expect(document.getElementById('email-error')?.textContent).toBe('Enter a valid email address');
    expect(document.getElementById('password-error')?.textContent).toBe('Password is required');
    expect(input('Email').getAttribute('aria-invalid')).toBe('true');
    expect(calls.filter((c) => c.url.endsWith('/login'))).toEqual([]);
    // Typing again clears the field's error.
    type('Password', 'x');
    expect(document.getElementById('password-error')?.textContent).toBe('');
    expect(input('Password').getAttribute('aria-invalid')).toBe('false');
  });

  it("shows the server's refusal in the form and stays", async () => {
    answers['/api/auth/login'] = () => refused(401, 'UNAUTHORIZED', 'Invalid email or password');
    visit();
    signInWith('admin@fleetgate.test', 'not-the-password');
    await until(() => document.querySelector('[role="alert"]'));
    expect(document.querySelector('[role="alert"]')?.textContent).toBe('Invalid email or password');
    expect(signInButton().getAttribute('aria-busy')).toBeNull();
    expect(assign).not.toHaveBeenCalled();
  });

  it('signs in with the unlock token and goes to the continue_url of this host only', async () => {
    answers['/api/auth/login'] = () => json(200, { success: true, data: {} });
    visit(`?continue_url=${encodeURIComponent('https://evil.example/x')}&unlock=tok-1`);
    signInWith();
    await until(() => assign.mock.calls.length);
    expect(calls.find((c) => c.url === '/api/auth/login')?.body).toEqual({
      email: 'admin@fleetgate.test',
      password: 'secret-password',
      unlock_token: 'tok-1',
    });
    expect(assign).toHaveBeenCalledWith('/');
  });

  it('asks for the second step in a dialog; a wrong code keeps it open, the right one signs in', async () => {
    answers['/api/auth/login'] = (call) =>
      call.body?.session_code === '123456'
        ? json(200, { success: true, data: {} })
        : refused(
            401,
            'MFA_REQUIRED',
            call.body?.session_code ? 'Invalid verification code (4 attempts left)' : '',
            {
              mfa_method: 'totp',
              session_id: 's-1',
            },
          );
    visit('?continue_url=%2Fmanagement%2Fdevices');
    signInWith();
    await until(() => document.querySelector('dialog[open]'));
    const dialog = document.querySelector('dialog')!;
    expect(document.getElementById(dialog.getAttribute('aria-labelledby')!)?.textContent).toBe(
      'TOTP verification',
    );
    expect(dialog.textContent).toContain('Enter the code from your authenticator app.');

    const code = dialog.querySelector('input')!;
    const confirm = [...dialog.querySelectorAll('button')].find((b) => b.textContent === 'Confirm')!;
    confirm.click();
    await until(() => dialog.querySelector('.field-error')?.textContent);
    expect(dialog.querySelector('.field-error')?.textContent).toBe('Prompt input is required');

    code.value = '000000';
    confirm.click();
    await until(() => dialog.querySelector('.field-error')?.textContent?.startsWith('Invalid'));
    expect(dialog.open).toBe(true);
    expect(calls.at(-1)?.body).toMatchObject({ session_code: '000000', session_id: 's-1' });

    code.value = '123456';
    confirm.click();
    await until(() => assign.mock.calls.length);
    expect(assign).toHaveBeenCalledWith('/management/devices');
    expect(document.querySelector('dialog')).toBeNull();
  });

  it('closing the code dialog brings the form back without an error', async () => {
    answers['/api/auth/login'] = () =>
      refused(401, 'MFA_REQUIRED', 'Enter the code we e-mailed you', { mfa_method: 'email' });
    visit();
    signInWith();
    await until(() => document.querySelector('dialog[open]'));
    expect(document.querySelector('dialog h2')?.textContent).toBe('Enter authentication code');
    document.querySelector<HTMLButtonElement>('dialog button.close')!.click();
    await until(() => signInButton().getAttribute('aria-busy') === null);
    expect(document.querySelector('[role="alert"]')).toBeNull();
    expect(document.querySelector('dialog')).toBeNull();
  });

  it('says why the console signed the user out, and offers the vendor ID when the server does', async () => {
    answers['/api/auth/oidc'] = () =>
      json(200, { success: true, data: { enabled: true, name: 'Vendor ID' } });
    visit('?reason=idle');
    expect(document.querySelector('[role="status"]')?.textContent).toBe(t('account', 'login.reason.idle'));
    await until(() =>
      [...document.querySelectorAll('button')].find((b) => b.textContent === 'Sign in with Vendor ID'),
    );
  });

  it('shows or hides the password on a toggle button that keeps its name', () => {
    visit();
    const reveal = document.querySelector<HTMLButtonElement>('button.reveal')!;
    expect(reveal.getAttribute('aria-label')).toBe('Show password');
    expect(reveal.getAttribute('aria-pressed')).toBe('false');
    reveal.click();
    expect(input('Password').type).toBe('text');
    expect(reveal.getAttribute('aria-pressed')).toBe('true');
    reveal.click();
    expect(input('Password').type).toBe('password');
    expect(reveal.getAttribute('aria-label')).toBe('Show password');
  });
});

describe('the sign-in page look', () => {
  it("fills the primary button with the brand's colour moved until white text reads on it, in both schemes", () => {
    for (const main of ['#ffee00', '#1c7ed6', '#000000']) {
      wearBrand({ ...BRAND_DEFAULTS, main_color: main, dark_mode_text_color: '#111111' });
      const style = document.documentElement.style;
      for (const scheme of ['light', 'dark'])
        expect(
          contrast(style.getPropertyValue(`--sign-in-primary-${scheme}`), '#ffffff'),
        ).toBeGreaterThanOrEqual(4.5);
      expect(contrast(style.getPropertyValue('--sign-in-text-dark'), '#242424')).toBeGreaterThanOrEqual(4.5);
    }
  });
});
