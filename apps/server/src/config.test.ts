import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from './config';

describe('configuration (issue 2)', () => {
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

  it('treats empty URLs as unset', () => {
    expect(loadConfig({ DATABASE_URL: '', MQTT_URL: '' }).databaseUrl).toBeUndefined();
  });
});
