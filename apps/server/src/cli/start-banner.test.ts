import { describe, expect, it } from 'vitest';
import { type StartFacts, startBanner } from './start-banner';

const facts: StartFacts = {
  host: '0.0.0.0',
  port: 8080,
  database: { kind: 'pglite', dataDir: '/srv/fleetgate/data' },
  mqtt: { kind: 'embedded', port: 1883 },
  admin: { email: 'admin@fleetgate.local', created: true, generatedPassword: 'Abcdefgh23456789' },
};

describe('start banner', () => {
  it('first start: the address, the e-mail, the generated password and the way back, framed', () => {
    const banner = startBanner(facts);
    const lines = banner.split('\n');
    expect(lines[0]).toBe('');
    expect(lines[1]).toMatch(/^ {2}─{72}$/);
    expect(lines.at(-2)).toBe(lines[1]);
    expect(banner).toContain('Fleetgate is running at http://localhost:8080');
    expect(banner).toContain('Database:    embedded PGlite in /srv/fleetgate/data');
    expect(banner).toContain('MQTT:        embedded broker on port 1883');
    expect(banner).toContain('Super admin: admin@fleetgate.local');
    // The e2e suite reads the password with this pattern.
    expect(banner).toMatch(/Password: {4}Abcdefgh23456789 {3}\(generated now and stored hashed/);
    expect(banner).toContain('npm run admin -- reset-password admin@fleetgate.local');
    // Nothing that looks like a log line: no JSON, no ANSI colours to trip a log collector.
    expect(lines.some((l) => l.trim().startsWith('{'))).toBe(false);
    expect(banner).not.toContain('\u001b[');
  });

  it('later starts point to the first password or ADMIN_PASSWORD, and to the reset command', () => {
    const later = startBanner({ ...facts, admin: { email: 'admin@fleetgate.local', created: false } });
    expect(later).toContain('the one printed at the first start (or ADMIN_PASSWORD)');
    expect(later).toContain('npm run admin -- reset-password admin@fleetgate.local');
    expect(later).not.toContain('generated now');
    const chosen = startBanner({ ...facts, admin: { email: 'admin@fleetgate.local', created: true } });
    expect(chosen).toContain('Password:    the one set in ADMIN_PASSWORD');
  });

  it('names PostgreSQL, an external broker, the demo, and a specific host as given', () => {
    const banner = startBanner({
      ...facts,
      host: '10.0.0.5',
      port: 9000,
      database: { kind: 'postgres' },
      mqtt: { kind: 'external', url: 'mqtt://user:secret@broker.example:1883' },
      demo: { devices: 36, companies: ['Acme Logistics', 'Beta Energy'] },
    });
    expect(banner).toContain('Fleetgate is running at http://10.0.0.5:9000');
    expect(banner).toContain('Database:    PostgreSQL (DATABASE_URL)');
    expect(banner).toContain('MQTT:        external broker broker.example:1883');
    expect(banner).not.toContain('secret');
    expect(banner).toContain('Demo:        36 simulated devices in Acme Logistics, Beta Energy');
    expect(startBanner({ ...facts, host: '::1' })).toContain('http://[::1]:8080');
  });
});
