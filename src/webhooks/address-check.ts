/**
 * Which addresses a webhook may reach. A webhook URL is typed by a user, so without this check it
 * would let anyone make the worker call the metadata service, the database or the admin port of
 * anything on the private network (SSRF). Addresses are parsed to bytes and matched by prefix, so
 * every spelling of an address (IPv4-mapped, NAT64, 6to4) is judged by the IPv4 address it carries.
 * Parsing and prefix matching are ipaddr.js's; the ranges and what they mean are ours.
 */
import { isIP } from 'node:net';
import ipaddr from 'ipaddr.js';

interface Range {
  cidr: [ipaddr.IPv4 | ipaddr.IPv6, number];
  why: string;
}

const range = (cidr: string, why: string): Range => ({ cidr: ipaddr.parseCIDR(cidr), why });

const V4_BLOCKED: Range[] = [
  range('0.0.0.0/8', 'an unspecified ("this network") address'),
  range('10.0.0.0/8', 'a private address'),
  range('100.64.0.0/10', 'a shared (carrier-grade NAT) address'),
  range('127.0.0.0/8', 'a loopback address'),
  range('169.254.0.0/16', 'a link-local or cloud metadata address'),
  range('172.16.0.0/12', 'a private address'),
  range('192.0.0.0/24', 'a reserved address'),
  range('192.0.2.0/24', 'a documentation address'),
  range('192.168.0.0/16', 'a private address'),
  range('198.18.0.0/15', 'a benchmarking address'),
  range('198.51.100.0/24', 'a documentation address'),
  range('203.0.113.0/24', 'a documentation address'),
  range('224.0.0.0/4', 'a multicast address'),
  range('240.0.0.0/4', 'a reserved or broadcast address'),
];

const V6_BLOCKED: Range[] = [
  range('::/128', 'an unspecified address'),
  range('::1/128', 'a loopback address'),
  // IPv4-compatible (deprecated): no public use, and some stacks route it to the IPv4 address.
  range('::/96', 'a reserved address'),
  range('64:ff9b:1::/48', 'a local NAT64 address'),
  range('100::/64', 'a discard address'),
  range('2001:db8::/32', 'a documentation address'),
  range('fc00::/7', 'a unique-local (private) address'),
  range('fe80::/10', 'a link-local address'),
  range('fec0::/10', 'a site-local address'),
  range('ff00::/8', 'a multicast address'),
];
// fd00:ec2::254 (the AWS metadata service over IPv6) lies in fc00::/7.

/** Prefixes that embed an IPv4 address, and the byte offset of it. */
const V6_EMBEDDING_V4: { range: Range; at: number }[] = [
  { range: range('::ffff:0:0/96', ''), at: 12 }, // IPv4-mapped
  { range: range('64:ff9b::/96', ''), at: 12 }, // NAT64 well-known prefix
  { range: range('2002::/16', ''), at: 2 }, // 6to4
];

const matching = (address: ipaddr.IPv4 | ipaddr.IPv6, ranges: Range[]) => ranges.find((r) => address.match(r.cidr));

/**
 * Why this IP address must not be called, or null when it is a public address. Anything that is
 * not a well-formed IP address is refused too: the caller has nothing safe to connect to.
 */
export function refusedAddress(address: string): string | null {
  const bare = address.startsWith('[') && address.endsWith(']') ? address.slice(1, -1) : address;
  // node's isIP is the strict judge of spelling (ipaddr.js would also take "1.2.3" or hex parts).
  const family = isIP(bare.split('%')[0]);
  if (family === 4) return matching(ipaddr.IPv4.parse(bare), V4_BLOCKED)?.why ?? null;
  if (family !== 6 || !ipaddr.IPv6.isValid(bare)) return 'not an IP address';
  const v6 = ipaddr.IPv6.parse(bare);
  for (const { range: embedding, at } of V6_EMBEDDING_V4) {
    if (v6.match(embedding.cidr)) {
      const why = refusedAddress(
        v6
          .toByteArray()
          .slice(at, at + 4)
          .join('.'),
      );
      return why ? `${why} (as IPv6)` : null;
    }
  }
  return matching(v6, V6_BLOCKED)?.why ?? null;
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
