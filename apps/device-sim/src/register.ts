import { type DeviceIdentity, devicesCsv } from './identity';

export type RegisterOptions = {
  /** The console's address, e.g. http://localhost:8080. */
  api: string;
  email: string;
  password: string;
  companyId: number;
  devices: readonly DeviceIdentity[];
};

export type RegisterOutcome = {
  created: number;
  existing: number;
  failed: { serial: string; message: string }[];
};

type ImportRow = { serial: string; success: boolean; errors?: { message: string }[] };

/**
 * Registers simulated devices the way an operator would: signs in to the API and uploads
 * them as a CSV file (POST /api/devices/import). Rows already registered count as existing.
 */
export async function registerThroughApi(options: RegisterOptions): Promise<RegisterOutcome> {
  const base = options.api.replace(/\/$/, '');
  const login = await fetch(`${base}/api/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-requested-with': 'XMLHttpRequest' },
    body: JSON.stringify({ email: options.email, password: options.password }),
  });
  if (!login.ok) throw new Error(`Sign-in as ${options.email} failed (${login.status})`);
  const cookies = login.headers.getSetCookie().map((c) => c.split(';')[0]!);
  const xsrf = cookies.find((c) => c.startsWith('XSRF-TOKEN='))?.slice('XSRF-TOKEN='.length) ?? '';

  const outcome: RegisterOutcome = { created: 0, existing: 0, failed: [] };
  const chunk = 5000;
  for (let i = 0; i < options.devices.length; i += chunk) {
    const form = new FormData();
    form.append(
      'file',
      new Blob([devicesCsv(options.devices.slice(i, i + chunk))], { type: 'text/csv' }),
      'fleet.csv',
    );
    const response = await fetch(`${base}/api/devices/import?company_id=${options.companyId}`, {
      method: 'POST',
      headers: {
        cookie: cookies.join('; '),
        'x-requested-with': 'XMLHttpRequest',
        'x-xsrf-token': decodeURIComponent(xsrf),
      },
      body: form,
    });
    const body = (await response.json()) as { data?: ImportRow[]; errors?: { message: string }[] };
    if (!response.ok || !body.data) {
      throw new Error(`Import failed (${response.status}): ${body.errors?.[0]?.message ?? 'unknown error'}`);
    }
    for (const row of body.data) {
      if (row.success) outcome.created++;
      else if (row.errors?.some((e) => e.message.includes('already registered'))) outcome.existing++;
      else outcome.failed.push({ serial: row.serial, message: row.errors?.[0]?.message ?? 'failed' });
    }
  }
  return outcome;
}
