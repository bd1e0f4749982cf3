import { describe, expect, it } from 'vitest';
import {
  cookiePrefix,
  deviceCookies,
  requestHeaders,
  rewriteHtml,
  rewriteLocation,
  rewriteSetCookie,
} from './web-proxy-rewrite';

const device = { host: '192.168.1.1', port: 80, scheme: 'http' as const };
const proxy = 'https://devices.example.com:8443';

describe('the device web page rewrite', () => {
  it("moves the device's own absolute URLs to the proxy, and nothing that only looks like them", () => {
    const page = [
      '<a href="http://192.168.1.1/a">',
      '<a href="http://192.168.1.1:80/b">',
      '<img src="//192.168.1.1/c.png">',
      '"http:\\/\\/192.168.1.1\\/d"',
      '<a href="http://192.168.1.10/e">',
      '<a href="http://192.168.1.1:8080/f">',
      '<a href="https://192.168.1.1/g">',
      'see http://192.168.1.1.evil.example/h',
    ].join('\n');
    expect(rewriteHtml(page, device, proxy).split('\n')).toEqual([
      `<a href="${proxy}/a">`,
      `<a href="${proxy}/b">`,
      '<img src="//devices.example.com:8443/c.png">',
      '"https:\\/\\/devices.example.com:8443\\/d"',
      '<a href="http://192.168.1.10/e">',
      '<a href="http://192.168.1.1:8080/f">',
      '<a href="https://192.168.1.1/g">',
      'see http://192.168.1.1.evil.example/h',
    ]);
    const onPort = { host: '10.0.0.5', port: 8080, scheme: 'http' as const };
    expect(rewriteHtml('"http://10.0.0.5:8080/x" "http://10.0.0.5/y"', onPort, proxy)).toBe(
      `"${proxy}/x" "http://10.0.0.5/y"`,
    );
  });

  it('rewrites a Location on the device, and leaves any other (the browser follows it, never the proxy)', () => {
    expect(rewriteLocation('http://192.168.1.1/cgi-bin/luci?x=1', device, proxy)).toBe(
      `${proxy}/cgi-bin/luci?x=1`,
    );
    expect(rewriteLocation('http://192.168.1.1', device, proxy)).toBe(proxy);
    expect(rewriteLocation('/relative', device, proxy)).toBe('/relative');
    for (const elsewhere of [
      'http://169.254.169.254/latest/meta-data/',
      'http://192.168.1.1.evil.example/',
      'http://192.168.1.1@evil.example/',
      'https://192.168.1.1/',
    ])
      expect(rewriteLocation(elsewhere, device, proxy)).toBe(elsewhere);
  });

  it('renames device cookies, drops Domain, keeps Path, and follows the proxy’s scheme for Secure', () => {
    const prefix = cookiePrefix(7, device);
    expect(prefix).toMatch(/^fgd_[0-9a-f]{8}_$/);
    expect(cookiePrefix(8, device)).not.toBe(prefix);
    expect(rewriteSetCookie('sysauth=abc; Domain=192.168.1.1; Path=/cgi-bin; HttpOnly', prefix, false)).toBe(
      `${prefix}sysauth=abc; Path=/cgi-bin; HttpOnly`,
    );
    expect(rewriteSetCookie('t=1; Secure; SameSite=None; Partitioned', prefix, false)).toBe(`${prefix}t=1`);
    expect(rewriteSetCookie('t=1; SameSite=None', prefix, true)).toBe(`${prefix}t=1; SameSite=None; Secure`);
    expect(rewriteSetCookie('=nameless', prefix, false)).toBeUndefined();
    expect(rewriteSetCookie('bad name=1', prefix, false)).toBeUndefined();
    expect(deviceCookies(`fg_session=console; ${prefix}sysauth=abc; XSRF-TOKEN=x; fg_web=p`, prefix)).toBe(
      'sysauth=abc',
    );
    expect(deviceCookies('fg_session=console', prefix)).toBeUndefined();
  });

  it('sends the device its own Host and origin, and none of the proxy’s forwarding headers', () => {
    const prefix = cookiePrefix(7, device);
    const headers = requestHeaders(
      {
        host: '127.0.0.1:5432',
        cookie: `fg_session=console; ${prefix}sysauth=abc`,
        origin: proxy,
        referer: `${proxy}/cgi-bin/luci`,
        'x-forwarded-for': '203.0.113.9',
        'x-forwarded-host': 'evil.example',
        forwarded: 'for=203.0.113.9',
        connection: 'keep-alive, x-secret',
        'x-secret': 'hop',
        'accept-encoding': 'gzip, deflate, br',
        accept: 'text/html',
      },
      { side: device, proxyOrigin: proxy, prefix },
    );
    expect(headers).toEqual({
      host: '192.168.1.1',
      cookie: 'sysauth=abc',
      origin: 'http://192.168.1.1',
      referer: 'http://192.168.1.1/cgi-bin/luci',
      'accept-encoding': 'gzip',
      accept: 'text/html',
    });
    expect(
      requestHeaders({ referer: 'https://elsewhere.example/' }, { side: device, proxyOrigin: proxy, prefix })
        .referer,
    ).toBeUndefined();
  });
});
