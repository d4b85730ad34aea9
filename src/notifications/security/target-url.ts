import { lookup as dnsLookup } from 'node:dns';
import { isIP } from 'node:net';
import { BadInputError } from '../../common/errors';
import { charCount } from '../../common/text-length';

/**
 * SSRF guard for player-supplied webhook and Discord URLs. It runs when a URL is saved and
 * again on every connection (see guardedLookup): a name that resolved to a public address
 * yesterday may resolve to 127.0.0.1 today.
 */
export type ResolveAll = (hostname: string) => Promise<Array<{ address: string; family: number }>>;

export const systemResolve: ResolveAll = (hostname) =>
  new Promise((done, fail) => dnsLookup(hostname, { all: true, verbatim: true }, (err, addresses) => (err ? fail(err) : done(addresses))));

type Range = [bytes: number[], prefix: number];
const v4 = (text: string, prefix: number): Range => [text.split('.').map(Number), prefix];

/** Loopback, private, link-local, CGNAT, unspecified, documentation, benchmarking, multicast, reserved. */
const BLOCKED_V4: Range[] = [
  v4('0.0.0.0', 8), v4('10.0.0.0', 8), v4('100.64.0.0', 10), v4('127.0.0.0', 8), v4('169.254.0.0', 16),
  v4('172.16.0.0', 12), v4('192.0.0.0', 24), v4('192.0.2.0', 24), v4('192.88.99.0', 24), v4('192.168.0.0', 16),
  v4('198.18.0.0', 15), v4('198.51.100.0', 24), v4('203.0.113.0', 24), v4('224.0.0.0', 4), v4('240.0.0.0', 4),
];

const v6 = (text: string, prefix: number): Range => [parseIPv6(text)!, prefix];
/**
 * Unspecified, loopback, IPv4-compatible, discard, IETF/Teredo, documentation, local-use NAT64
 * (RFC 8215: where the IPv4 address sits depends on the operator's prefix length, so none of it
 * is a public target), unique-local, link-local, site-local, multicast.
 */
const BLOCKED_V6: Range[] = [
  v6('::', 128), v6('::1', 128), v6('::', 96), v6('100::', 64), v6('2001::', 23), v6('2001:db8::', 32), v6('64:ff9b:1::', 48),
  v6('fc00::', 7), v6('fe80::', 10), v6('fec0::', 10), v6('ff00::', 8),
];

/** Prefixes whose last 32 bits are an IPv4 address, judged as that address. */
const EMBEDDING_V4: Range[] = [v6('::ffff:0:0', 96), v6('::ffff:0:0:0', 96), v6('64:ff9b::', 96)];

function inRange(bytes: number[], [base, prefix]: Range): boolean {
  for (let bit = 0; bit < prefix; bit += 8) {
    const bits = Math.min(8, prefix - bit);
    const mask = (0xff << (8 - bits)) & 0xff;
    if ((bytes[bit / 8]! & mask) !== (base[bit / 8]! & mask)) return false;
  }
  return true;
}

/** 16 bytes of an IPv6 address (with "::" and a trailing dotted quad), or null. */
export function parseIPv6(text: string): number[] | null {
  let s = text.replace(/^\[|\]$/g, '').replace(/%.*$/, '');
  const quad = /(\d+\.\d+\.\d+\.\d+)$/.exec(s);
  if (quad) {
    const b = quad[1]!.split('.').map(Number);
    s = s.slice(0, -quad[1]!.length) + (((b[0]! << 8) | b[1]!).toString(16) + ':' + ((b[2]! << 8) | b[3]!).toString(16));
  }
  const halves = s.split('::');
  if (halves.length > 2) return null;
  const head = halves[0] ? halves[0].split(':') : [];
  const tail = halves.length === 2 && halves[1] ? halves[1].split(':') : [];
  const missing = 8 - head.length - tail.length;
  if (halves.length === 1 ? missing !== 0 : missing < 1) return null;
  const groups = [...head, ...Array<string>(halves.length === 2 ? missing : 0).fill('0'), ...tail];
  const bytes: number[] = [];
  for (const g of groups) {
    if (!/^[0-9a-f]{1,4}$/i.test(g)) return null;
    const n = parseInt(g, 16);
    bytes.push(n >> 8, n & 0xff);
  }
  return bytes;
}

/** True for any address a server on the public internet has no business calling. */
export function isPrivateAddress(address: string): boolean {
  const host = address.replace(/^\[|\]$/g, '');
  const family = isIP(host.replace(/%.*$/, ''));
  if (family === 4) return BLOCKED_V4.some((r) => inRange(host.split('.').map(Number), r));
  if (family !== 6) return true;
  const bytes = parseIPv6(host);
  if (!bytes) return true;
  // IPv4 inside IPv6: mapped (::ffff:a.b.c.d), SIIT-translated (::ffff:0:a.b.c.d), NAT64
  // (64:ff9b::a.b.c.d), 6to4 (2002:aabb:ccdd::).
  const embedded = (from: number) => bytes.slice(from, from + 4).join('.');
  if (EMBEDDING_V4.some((r) => inRange(bytes, r))) return isPrivateAddress(embedded(12));
  if (inRange(bytes, v6('2002::', 16))) return isPrivateAddress(embedded(2));
  return BLOCKED_V6.some((r) => inRange(bytes, r));
}

export type TargetKind = 'webhook' | 'discord';

const DISCORD_HOSTS = new Set(['discord.com', 'discordapp.com', 'canary.discord.com', 'ptb.discord.com']);

export interface TargetCheckOptions {
  allowPrivate: boolean;
  resolve?: ResolveAll;
}

/** Parses and checks a player-supplied URL; throws BadInputError saying what is wrong. */
/** Longer than any webhook a receiver needs, and than what a row of endpoints should hold. */
export const MAX_TARGET_URL = 2048;
/** Every API names the URL it takes `url`. */
const URL_FIELD = { field: 'url' };

export async function checkTargetUrl(raw: string, kind: TargetKind, options: TargetCheckOptions): Promise<URL> {
  if (charCount(raw) > MAX_TARGET_URL) throw new BadInputError('notifications/invalid_url', `The URL may be at most ${MAX_TARGET_URL} characters.`, URL_FIELD);
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new BadInputError('notifications/invalid_url', 'The URL is not a valid absolute URL.', URL_FIELD);
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') {
    throw new BadInputError('notifications/invalid_url', 'Only http and https URLs are allowed.', URL_FIELD);
  }
  if (url.username || url.password) {
    throw new BadInputError('notifications/invalid_url', 'The URL must not carry a user name or password.', URL_FIELD);
  }
  // It parses, but no connection can be made to it: every delivery would fail until dead-lettered.
  if (url.port === '0') throw new BadInputError('notifications/invalid_url', 'The URL\'s port must be 1 to 65535.', URL_FIELD);
  if (options.allowPrivate) return url;
  if (kind === 'discord' && (url.protocol !== 'https:' || !DISCORD_HOSTS.has(url.hostname) || !url.pathname.startsWith('/api/webhooks/'))) {
    throw new BadInputError('notifications/invalid_discord_url', 'A Discord webhook URL looks like https://discord.com/api/webhooks/<id>/<token>.', URL_FIELD);
  }
  const host = url.hostname.replace(/^\[|\]$/g, '');
  const addresses = isIP(host) ? [host] : (await (options.resolve ?? systemResolve)(host).catch(() => [])).map((a) => a.address);
  // A name that does not resolve is refused as one that resolves to a private address is, in the
  // same words: two answers would let any player ask the server's resolver which internal names
  // exist (db.internal: "private" or "does not resolve"). The player can look up a public name
  // of their own for themselves, so the plainer message costs them little. Loopback receivers in
  // tests and local setups pass by NOTIFY_ALLOW_PRIVATE_TARGETS (allowPrivate, above).
  if (addresses.length === 0 || addresses.some(isPrivateAddress)) throw new BadInputError('notifications/private_target', NOT_PUBLIC, URL_FIELD);
  return url;
}

const NOT_PUBLIC = "The URL's host must resolve to a public address.";

export class PrivateTargetError extends Error {
  readonly code = 'EPRIVATETARGET';
  // Neither the address nor whether the name resolved at all: the endpoint's stored reason is the
  // player's to read, and either would make sending a DNS oracle for internal names.
  constructor(host: string) {
    super(`refused to connect to ${host}: it does not resolve to a public address`);
    this.name = 'PrivateTargetError';
  }
}

type LookupCallback = (err: NodeJS.ErrnoException | null, address: string | Array<{ address: string; family: number }>, family?: number) => void;

/**
 * A `lookup` for http.request that refuses private addresses at connect time, so the address
 * checked is the address connected to (no window for DNS rebinding between check and use).
 */
export function guardedLookup(hostname: string, options: { all?: boolean; family?: number }, callback: LookupCallback): void {
  dnsLookup(hostname, { ...options, all: true }, (err, addresses) => {
    // A name that does not exist ends the endpoint as a private one does (see checkTargetUrl); a
    // lookup that failed for now (EAI_AGAIN) is retried like any network error.
    if (err?.code === 'ENOTFOUND') return callback(new PrivateTargetError(hostname), []);
    if (err) return callback(err, []);
    if (addresses.some((a) => isPrivateAddress(a.address))) return callback(new PrivateTargetError(hostname), []);
    if (options.all) return callback(null, addresses);
    const first = addresses[0]!;
    return callback(null, first.address, first.family);
  });
}
