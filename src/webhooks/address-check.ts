/**
 * Which addresses a webhook may reach. A webhook URL is typed by a user, so without this check it
 * would let anyone make the worker call the metadata service, the database or the admin port of
 * anything on the private network (SSRF). Addresses are parsed to bytes and matched by prefix, so
 * every spelling of an address (IPv4-mapped, NAT64, 6to4) is judged by the IPv4 address it carries.
 */
import { isIP } from 'node:net';

interface Range {
  bytes: number[];
  bits: number;
  why: string;
}

const v4 = (cidr: string, why: string): Range => {
  const [addr, bits] = cidr.split('/');
  return { bytes: addr.split('.').map(Number), bits: Number(bits), why };
};
const v6 = (cidr: string, why: string): Range => {
  const [addr, bits] = cidr.split('/');
  return { bytes: parseIpv6(addr)!, bits: Number(bits), why };
};

const V4_BLOCKED: Range[] = [
  v4('0.0.0.0/8', 'an unspecified ("this network") address'),
  v4('10.0.0.0/8', 'a private address'),
  v4('100.64.0.0/10', 'a shared (carrier-grade NAT) address'),
  v4('127.0.0.0/8', 'a loopback address'),
  v4('169.254.0.0/16', 'a link-local or cloud metadata address'),
  v4('172.16.0.0/12', 'a private address'),
  v4('192.0.0.0/24', 'a reserved address'),
  v4('192.0.2.0/24', 'a documentation address'),
  v4('192.168.0.0/16', 'a private address'),
  v4('198.18.0.0/15', 'a benchmarking address'),
  v4('198.51.100.0/24', 'a documentation address'),
  v4('203.0.113.0/24', 'a documentation address'),
  v4('224.0.0.0/4', 'a multicast address'),
  v4('240.0.0.0/4', 'a reserved or broadcast address'),
];

const V6_BLOCKED: Range[] = [
  v6('::/128', 'an unspecified address'),
  v6('::1/128', 'a loopback address'),
  // IPv4-compatible (deprecated): no public use, and some stacks route it to the IPv4 address.
  v6('::/96', 'a reserved address'),
  v6('64:ff9b:1::/48', 'a local NAT64 address'),
  v6('100::/64', 'a discard address'),
  v6('2001:db8::/32', 'a documentation address'),
  v6('fc00::/7', 'a unique-local (private) address'),
  v6('fe80::/10', 'a link-local address'),
  v6('fec0::/10', 'a site-local address'),
  v6('ff00::/8', 'a multicast address'),
];
// fd00:ec2::254 (the AWS metadata service over IPv6) lies in fc00::/7.

/** Prefixes that embed an IPv4 address, and the byte offset of it. */
const V6_EMBEDDING_V4: { range: Range; at: number }[] = [
  { range: v6('::ffff:0:0/96', ''), at: 12 }, // IPv4-mapped
  { range: v6('64:ff9b::/96', ''), at: 12 }, // NAT64 well-known prefix
  { range: v6('2002::/16', ''), at: 2 }, // 6to4
];

function parseIpv6(text: string): number[] | null {
  let s = text.toLowerCase();
  const zone = s.indexOf('%');
  if (zone >= 0) s = s.slice(0, zone);
  let tail: number[] = [];
  const lastColon = s.lastIndexOf(':');
  if (s.slice(lastColon + 1).includes('.')) {
    const quad = s
      .slice(lastColon + 1)
      .split('.')
      .map(Number);
    if (quad.length !== 4 || quad.some((n) => !Number.isInteger(n) || n < 0 || n > 255)) return null;
    tail = quad;
    s = `${s.slice(0, lastColon + 1)}0:0`;
  }
  const halves = s.split('::');
  if (halves.length > 2) return null;
  const groups = (part: string) => (part === '' ? [] : part.split(':'));
  const head = groups(halves[0]);
  const rest = halves.length === 2 ? groups(halves[1]) : [];
  const missing = 8 - head.length - rest.length;
  if (missing < 0 || (halves.length === 1 && missing !== 0)) return null;
  const all = [...head, ...Array(halves.length === 2 ? missing : 0).fill('0'), ...rest];
  const bytes: number[] = [];
  for (const g of all) {
    if (!/^[0-9a-f]{1,4}$/.test(g)) return null;
    const n = parseInt(g, 16);
    bytes.push(n >> 8, n & 0xff);
  }
  if (tail.length) bytes.splice(12, 4, ...tail);
  return bytes;
}

function inRange(bytes: number[], range: Range): boolean {
  let bits = range.bits;
  for (let i = 0; bits > 0; i++, bits -= 8) {
    const mask = bits >= 8 ? 0xff : (0xff << (8 - bits)) & 0xff;
    if ((bytes[i] & mask) !== (range.bytes[i] & mask)) return false;
  }
  return true;
}

/**
 * Why this IP address must not be called, or null when it is a public address. Anything that is
 * not a well-formed IP address is refused too: the caller has nothing safe to connect to.
 */
export function refusedAddress(address: string): string | null {
  const bare = address.startsWith('[') && address.endsWith(']') ? address.slice(1, -1) : address;
  const family = isIP(bare.split('%')[0]);
  if (family === 4) {
    const bytes = bare.split('.').map(Number);
    return V4_BLOCKED.find((r) => inRange(bytes, r))?.why ?? null;
  }
  if (family !== 6) return 'not an IP address';
  const bytes = parseIpv6(bare);
  if (!bytes) return 'not an IP address';
  for (const { range, at } of V6_EMBEDDING_V4) {
    if (inRange(bytes, range)) {
      const why = refusedAddress(bytes.slice(at, at + 4).join('.'));
      return why ? `${why} (as IPv6)` : null;
    }
  }
  return V6_BLOCKED.find((r) => inRange(bytes, r))?.why ?? null;
}

export interface UrlRules {
  /** Plain http allowed (WEBHOOK_ALLOW_HTTP): local development and tests only. */
  allowHttp: boolean;
  /** Loopback, private, link-local… allowed (WEBHOOK_ALLOW_PRIVATE). */
  allowPrivate: boolean;
}

export const STRICT: UrlRules = { allowHttp: false, allowPrivate: false };

/** Why a webhook URL is refused before any DNS look-up, or null. Names with a literal address are judged here; others at connect time. */
export function refusedUrl(raw: string, rules: UrlRules): string | null {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return 'must be an absolute URL';
  }
  if (url.protocol !== 'https:' && !(rules.allowHttp && url.protocol === 'http:')) {
    return rules.allowHttp ? 'must be an https:// or http:// URL' : 'must be an https:// URL';
  }
  if (rules.allowPrivate) return null;
  // The URL parser has already turned 2130706433, 0x7f.1 and the like into dotted quads.
  const host = url.hostname;
  if (isIP(host) || host.startsWith('[')) {
    const why = refusedAddress(host);
    return why ? `must not point at ${why} (${host})` : null;
  }
  // RFC 6761: these names are the machine itself, whatever DNS says.
  const name = host.replace(/\.$/, '');
  if (name === 'localhost' || name.endsWith('.localhost')) return `must not point at the local machine (${host})`;
  return null;
}
