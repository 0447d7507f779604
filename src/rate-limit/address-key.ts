import { isIPv4, isIPv6 } from 'node:net';

/**
 * The key under which every per-address limit counts a client address (SECURITY.md, "Limits per
 * address"): an IPv4 address as itself; an IPv6 address by its /64, the smallest block one subscriber
 * is given (RFC 6177 §2 and RFC 7421), so that a host cannot take a fresh counter with each of its
 * 2^64 addresses; an IPv4-mapped IPv6 address (`::ffff:192.0.2.1`, RFC 4291 §2.5.5.2) as the IPv4
 * address it carries. Anything else (no address at all) is its own key.
 */
export function addressKey(ip: string): string {
  const address = ip.trim();
  if (isIPv4(address)) return address;
  const bare = address.replace(/^\[|\]$/g, '').replace(/%.*$/, '');
  if (!isIPv6(bare)) return address;
  const groups = ipv6Groups(bare);
  if (groups.slice(0, 5).every((g) => g === 0) && groups[5] === 0xffff) {
    return [groups[6] >> 8, groups[6] & 255, groups[7] >> 8, groups[7] & 255].join('.');
  }
  return `${groups
    .slice(0, 4)
    .map((g) => g.toString(16))
    .join(':')}::/64`;
}

/** The eight 16-bit groups of a valid IPv6 address, `::` expanded and a trailing dotted IPv4 read as two groups. */
function ipv6Groups(address: string): number[] {
  let text = address.toLowerCase();
  const dotted = /(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(text);
  if (dotted) {
    const [a, b, c, d] = dotted.slice(1).map(Number);
    text = `${text.slice(0, dotted.index)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const [head, tail] = text.includes('::') ? text.split('::') : [text, undefined];
  const left = head ? head.split(':') : [];
  const right = tail ? tail.split(':') : [];
  const missing = tail === undefined ? [] : new Array<string>(8 - left.length - right.length).fill('0');
  return [...left, ...missing, ...right].map((g) => parseInt(g, 16));
}
