import net from 'node:net';
import path from 'node:path';
import { z } from 'zod';

const port = (fallback: number) =>
  z.coerce
    .number({ error: 'must be a number' })
    .int('must be a whole number')
    .min(0, 'must be between 0 and 65535')
    .max(65535, 'must be between 0 and 65535')
    .default(fallback);

const optionalUrl = (protocols: readonly string[]) =>
  z
    .string()
    .trim()
    .optional()
    .transform((v) => (v === '' ? undefined : v))
    .refine((v) => v === undefined || (protocols.some((p) => v.startsWith(`${p}//`)) && URL.canParse(v)), {
      message: `must be a URL starting with ${protocols.map((p) => `${p}//`).join(' or ')}`,
    });

/**
 * One entry of SMTP_ALLOWED_HOSTS: a host name allowed by name (whatever it resolves to),
 * or an address range (a single IP address is a range of one).
 */
export type SmtpAllowedHost =
  | { kind: 'name'; name: string }
  | { kind: 'range'; address: string; prefix: number; family: 'ipv4' | 'ipv6' };

const HOST_NAME = /^(?=.{1,253}$)[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?(\.[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?)*$/;

const unbracket = (value: string) => value.replace(/^\[(.*)\]$/, '$1');

/** Reads one SMTP_ALLOWED_HOSTS entry; null when it is neither a name, an address nor a CIDR range. */
function smtpAllowedHost(entry: string): SmtpAllowedHost | null {
  const value = entry.toLowerCase();
  const [head = '', bits, ...rest] = value.split('/');
  const address = unbracket(head);
  const version = net.isIP(address);
  if (version !== 0) {
    const max = version === 4 ? 32 : 128;
    if (rest.length > 0 || (bits !== undefined && !/^\d{1,3}$/.test(bits))) return null;
    const prefix = bits === undefined ? max : Number(bits);
    if (prefix > max) return null;
    return { kind: 'range', address, prefix, family: version === 4 ? 'ipv4' : 'ipv6' };
  }
  const name = value.replace(/\.$/, '');
  return HOST_NAME.test(name) ? { kind: 'name', name } : null;
}

const smtpAllowedHosts = z
  .string()
  .optional()
  .transform((value, ctx) => {
    const entries = (value ?? '')
      .split(',')
      .map((e) => e.trim())
      .filter(Boolean);
    const parsed: SmtpAllowedHost[] = [];
    for (const entry of entries) {
      const host = smtpAllowedHost(entry);
      if (host) parsed.push(host);
      else
        ctx.addIssue({
          code: 'custom',
          message: `has "${entry}", which is not a host name, an IP address or a CIDR range such as 10.0.0.0/8`,
        });
    }
    return parsed;
  });

/** Map tiles when MAP_TILE_URL is unset (the console's own default: apps/web/src/features/devices/utils/constants.ts). */
export const DEFAULT_MAP_TILE_URL = 'https://tile.openstreetmap.org/{z}/{x}/{y}.png';

/** A tile URL template: http(s), a host that may start with `{s}.`, placeholders in the path. */
const tileUrl = z
  .string()
  .trim()
  .optional()
  .transform((v) => (v === '' ? undefined : v))
  .refine(
    (v) =>
      v === undefined ||
      (/^https?:\/\/(\{s\}\.)?[^/{}]+(\/|$)/.test(v) && URL.canParse(v.replace(/\{[a-z]+\}/g, '0'))),
    {
      message:
        'must be a URL starting with http:// or https:// such as https://tile.example.com/{z}/{x}/{y}.png',
    },
  );

const envSchema = z.object({
  NODE_ENV: z.enum(['development', 'production', 'test']).default('production'),
  PORT: port(8080),
  HOST: z.string().trim().min(1).default('0.0.0.0'),
  /** Where port-forward listeners bind; HOST unless set. */
  FORWARD_HOST: z.string().trim().min(1).optional(),
  /** Port of the device web page proxy, an origin apart from the console's; 0 picks a free port at start. */
  PROXY_PORT: port(0),
  /** Where the device web page proxy binds; HOST unless set. */
  PROXY_HOST: z.string().trim().min(1).optional(),
  /**
   * The proxy's public origin as browsers reach it (another port or another host name than the
   * console's, never a path under it); default: PUBLIC_URL's scheme and host name with PROXY_PORT.
   */
  PROXY_URL: optionalUrl(['http:', 'https:']).refine(
    (v) => v === undefined || /^https?:\/\/[^/?#]+\/?$/.test(v),
    {
      message:
        'must be an origin only, such as https://devices.example.com (device pages use absolute paths)',
    },
  ),
  DATA_DIR: z.string().trim().min(1).default('./data'),
  DATABASE_URL: optionalUrl(['postgres:', 'postgresql:']),
  MQTT_URL: optionalUrl(['mqtt:', 'mqtts:', 'ws:', 'wss:', 'tcp:']),
  MQTT_PORT: port(1883),
  REDIS_URL: optionalUrl(['redis:', 'rediss:']),
  /** Prefix of the Redis channels, so several Fleetgate systems can share one Redis. */
  REDIS_PREFIX: z
    .string()
    .trim()
    .regex(/^[A-Za-z0-9._:-]{1,100}$/, 'may hold letters, digits and . _ : - only')
    .default('fleetgate'),
  PUBLIC_URL: optionalUrl(['http:', 'https:']),
  /** Where devices connect their remote-access streams, when not where browsers reach the console. */
  TUNNEL_URL: optionalUrl(['http:', 'https:', 'ws:', 'wss:']),
  ADMIN_EMAIL: z.email('must be an e-mail address').default('admin@fleetgate.local'),
  ADMIN_PASSWORD: z
    .string()
    .min(8, 'must be at least 8 characters')
    .max(128, 'must be at most 128 characters')
    .optional(),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  /** `pretty`: short human-readable lines for a terminal; `json`: one object a line for a log collector. */
  LOG_FORMAT: z.enum(['json', 'pretty']).optional(),
  /** Minutes an access cookie lives before it must be refreshed. */
  ACCESS_TTL_MINUTES: z.coerce
    .number()
    .int()
    .min(1)
    .max(24 * 60)
    .default(15),
  /** Hours a sign-in lasts at most, active or not, before the password is asked again. */
  SESSION_MAX_HOURS: z.coerce
    .number()
    .int()
    .min(1)
    .max(24 * 365)
    .default(12),
  /** Minutes without a request after which a sign-in ends. */
  SESSION_IDLE_MINUTES: z.coerce
    .number()
    .int()
    .min(2)
    .max(24 * 60)
    .default(30),
  /** Sign-in attempts per e-mail and address in a 15-minute window. */
  LOGIN_RATE_LIMIT: z.coerce.number().int().min(1).max(10_000).default(10),
  /** Transfer-code redemptions per user and address in a 15-minute window. */
  CODE_RATE_LIMIT: z.coerce.number().int().min(1).max(10_000).default(10),
  /** How often ended device services are renewed or switched off. */
  SERVICE_SWEEP_SECONDS: z.coerce.number().int().min(1).max(3600).default(60),
  /** Serve the API description at /api/docs (public: it holds no data). */
  API_DOCS: z
    .enum(['true', 'false'], { error: 'must be true or false' })
    .default('true')
    .transform((v) => v === 'true'),
  /**
   * Map tile server of the device map, `{z}/{x}/{y}` (and `{s}` subdomains) in Leaflet's form;
   * the build bakes it into the console and the Content-Security-Policy allows its images.
   * VITE_MAP_TILE_URL, the build's own name for it, is read when this one is unset.
   */
  MAP_TILE_URL: tileUrl,
  VITE_MAP_TILE_URL: tileUrl,
  /** Sign-in attempts per account per hour from all addresses together (ASVS V2.2.1: at most 100). */
  ACCOUNT_LOGIN_LIMIT: z.coerce.number().int().min(3).max(100).default(20),
  /** Days device telemetry is kept before the retention job deletes it. */
  TELEMETRY_RETENTION_DAYS: z.coerce.number().int().min(1).max(3650).default(30),
  /** Simulated devices the demo start (`--demo`) brings up. */
  DEMO_DEVICES: z.coerce.number().int().min(1).max(5000).default(36),
  /** MQTT 5 shared-subscription group of the server instances in external broker mode. */
  MQTT_SHARED_GROUP: z
    .string()
    .trim()
    .regex(/^[A-Za-z0-9_-]{1,64}$/, 'must be 1 to 64 letters, digits, dashes or underscores')
    .default('fleetgate'),
  /** Bearer token an external broker presents to the device auth hooks (/mqtt/auth, /mqtt/acl). */
  MQTT_AUTH_TOKEN: z
    .string()
    .trim()
    .optional()
    .transform((v) => (v === '' ? undefined : v))
    .refine((v) => v === undefined || v.length >= 16, { message: 'must be at least 16 characters' }),
  /** OpenID Connect issuer of the vendor identity service (product §1); unset turns vendor ID off. */
  OIDC_ISSUER: optionalUrl(['http:', 'https:']),
  OIDC_CLIENT_ID: z
    .string()
    .trim()
    .max(500)
    .optional()
    .transform((v) => (v === '' ? undefined : v)),
  OIDC_CLIENT_SECRET: z
    .string()
    .trim()
    .max(2000)
    .optional()
    .transform((v) => (v === '' ? undefined : v)),
  /** The name the console shows for the identity service ('Sign in with …'). */
  OIDC_NAME: z.string().trim().min(1).max(60).default('Vendor ID'),
  /** Redirect URI registered with the identity service; default PUBLIC_URL + /account/oidc/callback. */
  OIDC_REDIRECT_URI: optionalUrl(['http:', 'https:']),
  /** Key for secrets stored encrypted (SMTP password, TOTP secrets); else DATA_DIR/secret.key. */
  SECRET_KEY: z
    .string()
    .trim()
    .optional()
    .transform((v) => (v === '' ? undefined : v))
    .refine((v) => v === undefined || v.length >= 32, { message: 'must be at least 32 characters' }),
  /** SMTP hosts allowed although they are internal (loopback, private, link-local): see smtp-target.ts. */
  SMTP_ALLOWED_HOSTS: smtpAllowedHosts,
});

/** Values never echoed in an error: they may hold passwords. */
const SECRET_KEYS = new Set([
  'ADMIN_PASSWORD',
  'DATABASE_URL',
  'MQTT_URL',
  'REDIS_URL',
  'MQTT_AUTH_TOKEN',
  'SECRET_KEY',
  'OIDC_CLIENT_SECRET',
]);

export type Config = {
  env: 'development' | 'production' | 'test';
  port: number;
  host: string;
  /** FORWARD_HOST: the address port-forward listeners bind to (HOST by default). */
  forwardHost: string;
  /** PROXY_PORT: the device web page proxy's port (0: a free one, picked at start). */
  proxyPort: number;
  /** PROXY_HOST: the address the device web page proxy binds to (HOST by default). */
  proxyHost: string;
  /** PROXY_URL: the proxy's public origin; unset: PUBLIC_URL's (or the request's) scheme and host name with the proxy's port. */
  proxyUrl: string | undefined;
  dataDir: string;
  databaseUrl: string | undefined;
  mqttUrl: string | undefined;
  mqttPort: number;
  redisUrl: string | undefined;
  redisPrefix: string;
  publicUrl: string | undefined;
  /** TUNNEL_URL: the server's address as devices reach it for tunnels; PUBLIC_URL (or the request's host) otherwise. */
  tunnelUrl: string | undefined;
  adminEmail: string;
  adminPassword: string | undefined;
  logLevel: z.infer<typeof envSchema>['LOG_LEVEL'];
  /** LOG_FORMAT; unset: pretty when stdout is a terminal, JSON otherwise (cli/log-format.ts). */
  logFormat: 'json' | 'pretty';
  accessTtlMinutes: number;
  /** SESSION_MAX_HOURS: the absolute life of a sign-in (ASVS V3.3.2). */
  sessionMaxHours: number;
  /** SESSION_IDLE_MINUTES: a sign-in unused this long ends (ASVS V3.3.2). */
  sessionIdleMinutes: number;
  loginRateLimit: number;
  /** CODE_RATE_LIMIT: tries to redeem a transfer code per user and address per 15 minutes. */
  codeRateLimit: number;
  /** SERVICE_SWEEP_SECONDS: the period of the device service sweeper. */
  serviceSweepSeconds: number;
  /** API_DOCS: whether /api/docs is served. */
  apiDocs: boolean;
  /** MAP_TILE_URL: the device map's tile server, whose images the Content-Security-Policy allows. */
  mapTileUrl: string;
  /** ACCOUNT_LOGIN_LIMIT: sign-in attempts per account per hour, whatever the address. */
  accountLoginLimit: number;
  telemetryRetentionDays: number;
  demoDevices: number;
  mqttAuthToken: string | undefined;
  mqttSharedGroup: string;
  /** The vendor identity service (OpenID Connect); null when OIDC_ISSUER or OIDC_CLIENT_ID is unset. */
  oidc: {
    issuer: string;
    clientId: string;
    clientSecret: string | undefined;
    name: string;
    redirectUri: string | undefined;
  } | null;
  /**
   * SMTP_ALLOWED_HOSTS: host names, addresses and ranges the SMTP settings may reach although
   * they are internal. Empty: every internal address is refused (modules/mail/smtp-target.ts).
   */
  smtpAllowedHosts: readonly SmtpAllowedHost[];
  /** SECRET_KEY: encrypts secrets at rest (auth/secret-key.ts); unset means DATA_DIR/secret.key. */
  secretKey: string | undefined;
  /** Seeds the demo company tree and runs simulated devices in-process (`npm start -- --demo`). */
  demo: boolean;
  /** Runs a PGlite database in memory instead of on disk (tests). */
  inMemoryDatabase: boolean;
  /** Starts the embedded broker (off in API tests). */
  embeddedBroker: boolean;
};

export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid configuration:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
    this.name = 'ConfigError';
  }
}

/**
 * Reads and validates the configuration once. Every problem is named, with the variable
 * it belongs to, so a bad start says everything that is wrong at once.
 */
export function loadConfig(env: NodeJS.ProcessEnv = process.env, overrides: Partial<Config> = {}): Config {
  const parsed = envSchema.safeParse(env);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((issue) => {
      const key = String(issue.path[0] ?? 'config');
      const value = env[key];
      const shown = value === undefined || SECRET_KEYS.has(key) ? '' : ` (got "${value}")`;
      return `${key} ${issue.message}${shown}`;
    });
    throw new ConfigError(problems);
  }
  const e = parsed.data;
  // The vendor identity service: both names or neither, and in production only over https,
  // since its answers sign users in.
  const oidcProblems = [
    ...(Boolean(e.OIDC_ISSUER) !== Boolean(e.OIDC_CLIENT_ID)
      ? ['OIDC_ISSUER and OIDC_CLIENT_ID must be set together (sign-in with vendor ID needs both)']
      : []),
    ...(e.NODE_ENV === 'production' && e.OIDC_ISSUER?.startsWith('http:')
      ? [`OIDC_ISSUER must be an https:// address in production (got "${e.OIDC_ISSUER}")`]
      : []),
  ];
  if (oidcProblems.length) throw new ConfigError(oidcProblems);
  // A device page on the console's own origin could read and set the console's cookies.
  if (e.PROXY_URL && e.PUBLIC_URL && new URL(e.PROXY_URL).origin === new URL(e.PUBLIC_URL).origin)
    throw new ConfigError([
      `PROXY_URL must be another origin than PUBLIC_URL (another port or host name) (got "${e.PROXY_URL}")`,
    ]);
  return {
    env: e.NODE_ENV,
    port: e.PORT,
    host: e.HOST,
    forwardHost: e.FORWARD_HOST ?? e.HOST,
    proxyPort: e.PROXY_PORT,
    proxyHost: e.PROXY_HOST ?? e.HOST,
    proxyUrl: e.PROXY_URL?.replace(/\/$/, ''),
    dataDir: path.resolve(e.DATA_DIR),
    databaseUrl: e.DATABASE_URL,
    mqttUrl: e.MQTT_URL,
    mqttPort: e.MQTT_PORT,
    redisUrl: e.REDIS_URL,
    redisPrefix: e.REDIS_PREFIX,
    publicUrl: e.PUBLIC_URL,
    tunnelUrl: e.TUNNEL_URL,
    adminEmail: e.ADMIN_EMAIL.toLowerCase(),
    adminPassword: e.ADMIN_PASSWORD,
    logLevel: e.LOG_LEVEL,
    logFormat: e.LOG_FORMAT ?? (process.stdout.isTTY ? 'pretty' : 'json'),
    accessTtlMinutes: e.ACCESS_TTL_MINUTES,
    sessionMaxHours: e.SESSION_MAX_HOURS,
    sessionIdleMinutes: e.SESSION_IDLE_MINUTES,
    loginRateLimit: e.LOGIN_RATE_LIMIT,
    codeRateLimit: e.CODE_RATE_LIMIT,
    serviceSweepSeconds: e.SERVICE_SWEEP_SECONDS,
    accountLoginLimit: e.ACCOUNT_LOGIN_LIMIT,
    apiDocs: e.API_DOCS,
    mapTileUrl: e.MAP_TILE_URL ?? e.VITE_MAP_TILE_URL ?? DEFAULT_MAP_TILE_URL,
    telemetryRetentionDays: e.TELEMETRY_RETENTION_DAYS,
    demoDevices: e.DEMO_DEVICES,
    mqttAuthToken: e.MQTT_AUTH_TOKEN,
    mqttSharedGroup: e.MQTT_SHARED_GROUP,
    secretKey: e.SECRET_KEY,
    smtpAllowedHosts: e.SMTP_ALLOWED_HOSTS,
    oidc:
      e.OIDC_ISSUER && e.OIDC_CLIENT_ID
        ? {
            issuer: e.OIDC_ISSUER,
            clientId: e.OIDC_CLIENT_ID,
            clientSecret: e.OIDC_CLIENT_SECRET,
            name: e.OIDC_NAME,
            redirectUri: e.OIDC_REDIRECT_URI,
          }
        : null,
    demo: false,
    inMemoryDatabase: false,
    embeddedBroker: true,
    ...overrides,
  };
}
