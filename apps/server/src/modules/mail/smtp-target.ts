import dns from 'node:dns';
import net from 'node:net';
import type { SmtpAllowedHost } from '#src/config';

/** The answer to an internal SMTP host, when the settings are saved and when mail is sent. */
export const SMTP_HOST_REFUSED =
  'This address is not allowed: it points to an internal network. Ask the system operator to allow it with SMTP_ALLOWED_HOSTS.';

type Family = 'ipv4' | 'ipv6';

/**
 * Where an SMTP host may not lead unless SMTP_ALLOWED_HOSTS says so: the SMTP settings must
 * not turn the server into a probe of its own machine and network (SSRF). Private ranges are
 * refused too: the server usually sits in one, next to services that trust it
 * (docs/decisions.md, 'SMTP hosts inside the network'). BlockList matches IPv4-mapped IPv6
 * addresses (::ffff:127.0.0.1) against the IPv4 rules itself.
 */
const INTERNAL_RANGES: readonly (readonly [address: string, prefix: number, family: Family])[] = [
  ['0.0.0.0', 8, 'ipv4'], // "this network": 0.0.0.0 reaches the server itself
  ['127.0.0.0', 8, 'ipv4'], // loopback
  ['169.254.0.0', 16, 'ipv4'], // link-local
  ['169.254.169.254', 32, 'ipv4'], // cloud metadata (AWS, GCP, Azure, OpenStack), inside link-local
  ['100.64.0.0', 10, 'ipv4'], // carrier-grade NAT
  ['100.100.100.200', 32, 'ipv4'], // Alibaba Cloud metadata, inside carrier-grade NAT
  ['10.0.0.0', 8, 'ipv4'], // private
  ['172.16.0.0', 12, 'ipv4'], // private
  ['192.168.0.0', 16, 'ipv4'], // private
  ['224.0.0.0', 4, 'ipv4'], // multicast
  ['240.0.0.0', 4, 'ipv4'], // reserved, with the 255.255.255.255 broadcast
  ['::', 96, 'ipv6'], // unspecified (::) and the old IPv4-compatible forms (::127.0.0.1)
  ['::1', 128, 'ipv6'], // loopback
  ['fe80::', 10, 'ipv6'], // link-local
  ['fc00::', 7, 'ipv6'], // unique local (private)
  ['fd00:ec2::254', 128, 'ipv6'], // AWS metadata over IPv6, inside unique local
  ['ff00::', 8, 'ipv6'], // multicast
];

const internal = new net.BlockList();
for (const [address, prefix, family] of INTERNAL_RANGES) internal.addSubnet(address, prefix, family);

/** Where to connect: the checked address, and the name TLS presents and verifies. */
export type SmtpTarget =
  | { ok: true; address: string; servername: string | undefined }
  | { ok: false; reason: 'internal' | 'unresolved'; message: string };

export type SmtpHostCheck = (host: string) => Promise<SmtpTarget>;

const familyOf = (address: string): Family => (net.isIPv6(address) ? 'ipv6' : 'ipv4');

/** An error code fit to show (ENOTFOUND), never free text. */
function codeOf(error: unknown): string {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' && /^[A-Z][A-Z0-9_]{1,40}$/.test(code) ? code : 'ERROR';
}

/**
 * The host check of the SMTP settings, used when they are saved and again before every
 * connection, since a name may resolve elsewhere later (DNS rebinding). It resolves the
 * name once, refuses it when any of its addresses is internal and not allowed, and hands
 * back the checked address: the caller connects to that address, never to the name again.
 * A name listed in SMTP_ALLOWED_HOSTS is allowed whatever it resolves to.
 */
export function smtpHostCheck(allowed: readonly SmtpAllowedHost[]): SmtpHostCheck {
  const names = new Set<string>();
  const ranges = new net.BlockList();
  for (const entry of allowed) {
    if (entry.kind === 'name') names.add(entry.name);
    else ranges.addSubnet(entry.address, entry.prefix, entry.family);
  }
  const refused = (address: string) =>
    internal.check(address, familyOf(address)) && !ranges.check(address, familyOf(address));

  return async (host) => {
    // '[::1]' is how the settings spell an IPv6 address; 'name.' is the same name as 'name'.
    const name = host
      .trim()
      .toLowerCase()
      .replace(/^\[(.*)\]$/, '$1')
      .replace(/\.$/, '');
    const literal = net.isIP(name) !== 0;
    let addresses: string[];
    try {
      addresses = literal ? [name] : (await dns.promises.lookup(name, { all: true })).map((a) => a.address);
    } catch (error) {
      return {
        ok: false,
        reason: 'unresolved',
        message: `Could not find the address of the SMTP server (${codeOf(error)})`,
      };
    }
    const [first] = addresses;
    if (first === undefined)
      return { ok: false, reason: 'unresolved', message: 'Could not find the address of the SMTP server' };
    if (!names.has(name) && addresses.some(refused))
      return { ok: false, reason: 'internal', message: SMTP_HOST_REFUSED };
    return { ok: true, address: first, servername: literal ? undefined : name };
  };
}
