import type { SeedResult } from '../db/seed';

/** What the start banner tells: where to go, what runs, and who signs in first. */
export type StartFacts = {
  /** HOST as configured; a wildcard address is shown as localhost. */
  host: string;
  /** The port actually listened on (PORT=0 picks a free one). */
  port: number;
  database: { kind: 'pglite'; dataDir: string } | { kind: 'postgres' };
  mqtt: { kind: 'embedded'; port: number } | { kind: 'external'; url: string } | { kind: 'off' };
  demo?: { devices: number; companies: string[] } | undefined;
  admin: SeedResult['admin'];
};

const RULE = `  ${'─'.repeat(72)}`;

/** The command that sets a new password, for whoever lost the one printed at the first start. */
export const resetPasswordHint = (email: string) => `npm run admin -- reset-password ${email}`;

/** The address a browser on this machine uses for HOST. */
function browserHost(host: string): string {
  if (host === '0.0.0.0' || host === '::') return 'localhost';
  return host.includes(':') ? `[${host}]` : host;
}

function passwordLines(admin: SeedResult['admin']): string[] {
  if (admin.generatedPassword) {
    return [
      `  Password:    ${admin.generatedPassword}   (generated now and stored hashed; it is not shown again)`,
      '               Keep it now. Lost it? Stop the server, then run:',
      `               ${resetPasswordHint(admin.email)}`,
    ];
  }
  if (admin.created) return ['  Password:    the one set in ADMIN_PASSWORD'];
  return [
    '  Password:    the one printed at the first start (or ADMIN_PASSWORD)',
    '               Lost it? Stop the server, then run:',
    `               ${resetPasswordHint(admin.email)}`,
  ];
}

/**
 * The lines printed once the server listens, framed by blank lines and rules so that they
 * stand out from the log lines above them. The e2e suite reads the address and password
 * from it: keep `Fleetgate is running at URL` and `Password:    PASSWORD   (generated now`.
 */
export function startBanner(facts: StartFacts): string {
  const database =
    facts.database.kind === 'postgres'
      ? 'PostgreSQL (DATABASE_URL)'
      : `embedded PGlite in ${facts.database.dataDir}`;
  const mqtt =
    facts.mqtt.kind === 'embedded'
      ? `embedded broker on port ${facts.mqtt.port}`
      : facts.mqtt.kind === 'external'
        ? `external broker ${new URL(facts.mqtt.url).host}`
        : 'off';
  return [
    '',
    RULE,
    `  Fleetgate is running at http://${browserHost(facts.host)}:${facts.port}`,
    '',
    `  Database:    ${database}`,
    `  MQTT:        ${mqtt}`,
    ...(facts.demo
      ? [`  Demo:        ${facts.demo.devices} simulated devices in ${facts.demo.companies.join(', ')}`]
      : []),
    '',
    `  Super admin: ${facts.admin.email}`,
    ...passwordLines(facts.admin),
    RULE,
    '',
  ].join('\n');
}
