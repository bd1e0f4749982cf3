import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';
import { testConfig } from '#test/app';
import { ConfigError, loadConfig } from '../config';
import { consoleCspDirectives, registerSecurityHeaders, tileSource } from './security-headers';

/** The headers a bare server with only these headers answers `/` with, under the given variables. */
async function headersWith(env: Record<string, string>) {
  const app = Fastify();
  app.decorate('config', testConfig(env));
  await registerSecurityHeaders(app);
  app.get('/', async () => 'ok');
  const response = await app.inject({ method: 'GET', url: '/' });
  await app.close();
  return response.headers;
}

describe('security headers: what depends on the configuration', () => {
  it('allows the images of the configured tile server, subdomains included', () => {
    expect(tileSource('https://tile.openstreetmap.org/{z}/{x}/{y}.png')).toBe(
      'https://tile.openstreetmap.org',
    );
    expect(tileSource('https://{s}.tiles.example.com:8443/base/{z}/{x}/{y}.png')).toBe(
      'https://*.tiles.example.com:8443',
    );
    const directives = consoleCspDirectives(
      testConfig({ MAP_TILE_URL: 'http://maps.corp.lan/{z}/{x}/{y}.png' }),
    );
    expect(directives['img-src']).toEqual([
      "'self'",
      'data:',
      'blob:',
      'http://maps.corp.lan',
      'https:',
      'http:',
    ]);
    // Over https, pictures of other sites (avatars) only by https.
    const secure = consoleCspDirectives(testConfig({ PUBLIC_URL: 'https://rms.example.com' }));
    expect(secure['img-src']).toContain('https:');
    expect(secure['img-src']).not.toContain('http:');
  });

  it('reads VITE_MAP_TILE_URL, the build variable, when MAP_TILE_URL is unset', () => {
    expect(testConfig({ VITE_MAP_TILE_URL: 'https://a.example/{z}/{x}/{y}.png' }).mapTileUrl).toBe(
      'https://a.example/{z}/{x}/{y}.png',
    );
    expect(
      testConfig({
        MAP_TILE_URL: 'https://b.example/{z}/{x}/{y}.png',
        VITE_MAP_TILE_URL: 'https://a.example/t.png',
      }).mapTileUrl,
    ).toBe('https://b.example/{z}/{x}/{y}.png');
  });

  it('refuses a tile URL that is not http(s) or whose host is a placeholder other than {s}', () => {
    for (const value of [
      'ftp://tiles.example/{z}.png',
      'https://{z}.example/x.png',
      'tiles.example/{z}.png',
    ]) {
      expect(() => loadConfig({ MAP_TILE_URL: value })).toThrow(ConfigError);
    }
  });

  it('lets the console reach the identity service and its own socket address when they are configured', () => {
    const directives = consoleCspDirectives(
      testConfig({
        PUBLIC_URL: 'https://console.example.com',
        OIDC_ISSUER: 'https://id.vendor.example/realms/x',
        OIDC_CLIENT_ID: 'fleetgate',
      }),
    );
    expect(directives['connect-src']).toEqual([
      "'self'",
      'wss://console.example.com',
      'https://id.vendor.example',
    ]);
  });

  it('sends HSTS and upgrades insecure requests only when PUBLIC_URL is https', async () => {
    const https = await headersWith({ PUBLIC_URL: 'https://console.example.com' });
    expect(https['strict-transport-security']).toBe('max-age=31536000');
    expect(https['content-security-policy']).toContain('upgrade-insecure-requests');

    const http = await headersWith({ PUBLIC_URL: 'http://console.example.com' });
    expect(http['strict-transport-security']).toBeUndefined();
    expect(http['content-security-policy']).not.toContain('upgrade-insecure-requests');
    expect(http['x-frame-options']).toBe('DENY');
  });
});
