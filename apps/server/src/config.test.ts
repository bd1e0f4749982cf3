import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from './config';

describe('configuration', () => {
  it('defaults to port 8080, ./data and the embedded parts', () => {
    const config = loadConfig({});
    expect(config.port).toBe(8080);
    expect(config.dataDir.endsWith('/data')).toBe(true);
    expect(config.databaseUrl).toBeUndefined();
    expect(config.mqttUrl).toBeUndefined();
    expect(config.adminEmail).toBe('admin@fleetgate.local');
  });

  it('names every bad value at once, with the variable and what was given', () => {
    let error: unknown;
    try {
      loadConfig({ PORT: 'eighty', DATABASE_URL: 'mysql://x', ADMIN_PASSWORD: 'short', LOG_LEVEL: 'loud' });
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(ConfigError);
    const problems = (error as ConfigError).problems;
    expect(problems).toHaveLength(4);
    expect(problems).toContain('PORT must be a number (got "eighty")');
    expect(problems.find((p) => p.startsWith('DATABASE_URL'))).toContain('postgres://');
    // Secrets are named, never echoed.
    expect(problems).toContain('ADMIN_PASSWORD must be at least 8 characters');
    expect(problems.join('\n')).not.toContain('mysql://x');
    expect(problems.find((p) => p.startsWith('LOG_LEVEL'))).toBeDefined();
  });

  it('asks for the vendor identity service by both its names, and over https in production', () => {
    const problems = (env: NodeJS.ProcessEnv) => {
      try {
        loadConfig(env);
        return [];
      } catch (error) {
        return (error as ConfigError).problems;
      }
    };
    expect(problems({ OIDC_ISSUER: 'https://id.example.com' })).toEqual([
      'OIDC_ISSUER and OIDC_CLIENT_ID must be set together (sign-in with vendor ID needs both)',
    ]);
    expect(problems({ OIDC_ISSUER: 'http://id.example.com', OIDC_CLIENT_ID: 'abc' })).toEqual([
      'OIDC_ISSUER must be an https:// address in production (got "http://id.example.com")',
    ]);
    expect(
      problems({ OIDC_ISSUER: 'http://127.0.0.1:9000', OIDC_CLIENT_ID: 'abc', NODE_ENV: 'development' }),
    ).toEqual([]);
    expect(loadConfig({ OIDC_ISSUER: 'https://id.example.com', OIDC_CLIENT_ID: 'abc' }).oidc?.issuer).toBe(
      'https://id.example.com',
    );
  });

  it('treats empty URLs as unset', () => {
    expect(loadConfig({ DATABASE_URL: '', MQTT_URL: '' }).databaseUrl).toBeUndefined();
  });

  it('allows no internal SMTP host by default, and reads names, addresses and CIDR ranges from SMTP_ALLOWED_HOSTS', () => {
    expect(loadConfig({}).smtpAllowedHosts).toEqual([]);
    expect(loadConfig({ SMTP_ALLOWED_HOSTS: ' ' }).smtpAllowedHosts).toEqual([]);
    expect(
      loadConfig({ SMTP_ALLOWED_HOSTS: 'Relay.Corp.Example., 127.0.0.1, [::1], 10.0.0.0/8, [fd00::]/8' })
        .smtpAllowedHosts,
    ).toEqual([
      { kind: 'name', name: 'relay.corp.example' },
      { kind: 'range', address: '127.0.0.1', prefix: 32, family: 'ipv4' },
      { kind: 'range', address: '::1', prefix: 128, family: 'ipv6' },
      { kind: 'range', address: '10.0.0.0', prefix: 8, family: 'ipv4' },
      { kind: 'range', address: 'fd00::', prefix: 8, family: 'ipv6' },
    ]);
  });

  it('names every SMTP_ALLOWED_HOSTS entry that is not a host name, an address or a range', () => {
    let error: unknown;
    try {
      loadConfig({ SMTP_ALLOWED_HOSTS: '10.0.0.0/33,relay_1.corp,127.0.0.1,http://x' });
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(ConfigError);
    const problems = (error as ConfigError).problems;
    expect(problems).toHaveLength(3);
    expect(problems[0]).toBe(
      'SMTP_ALLOWED_HOSTS has "10.0.0.0/33", which is not a host name, an IP address or a CIDR range such as 10.0.0.0/8 (got "10.0.0.0/33,relay_1.corp,127.0.0.1,http://x")',
    );
    expect(problems[1]).toContain('"relay_1.corp"');
    expect(problems[2]).toContain('"http://x"');
  });
});
