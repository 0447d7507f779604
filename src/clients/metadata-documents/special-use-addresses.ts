import { BlockList, isIP } from 'node:net';

/**
 * Addresses a client metadata document is never fetched from (SECURITY.md, "SSRF through client
 * metadata"): the special-use ranges of RFC 6890 and the registries that followed it (IANA IPv4 and IPv6
 * Special-Purpose Address Registries), so that a `client_id` URL cannot make this server connect to
 * itself, to the network it runs in, or to anything but the public internet.
 */
const IPV4_SPECIAL = [
  ['0.0.0.0', 8], // "this network" (RFC 791)
  ['10.0.0.0', 8], // private (RFC 1918)
  ['100.64.0.0', 10], // shared address space, carrier-grade NAT (RFC 6598)
  ['127.0.0.0', 8], // loopback (RFC 1122)
  ['169.254.0.0', 16], // link-local (RFC 3927), where cloud metadata services answer
  ['172.16.0.0', 12], // private (RFC 1918)
  ['192.0.0.0', 24], // IETF protocol assignments (RFC 6890)
  ['192.0.2.0', 24], // documentation TEST-NET-1 (RFC 5737)
  ['192.31.196.0', 24], // AS112 (RFC 7535)
  ['192.52.193.0', 24], // AMT (RFC 7450)
  ['192.88.99.0', 24], // 6to4 relay anycast (RFC 7526)
  ['192.168.0.0', 16], // private (RFC 1918)
  ['192.175.48.0', 24], // AS112 direct delegation (RFC 7534)
  ['198.18.0.0', 15], // benchmarking (RFC 2544)
  ['198.51.100.0', 24], // documentation TEST-NET-2 (RFC 5737)
  ['203.0.113.0', 24], // documentation TEST-NET-3 (RFC 5737)
  ['224.0.0.0', 4], // multicast (RFC 5771)
  ['240.0.0.0', 4], // reserved (RFC 1112), with the limited broadcast 255.255.255.255 (RFC 919)
] as const;

const IPV6_SPECIAL = [
  ['::', 96], // unspecified, loopback and the deprecated IPv4-compatible addresses (RFC 4291)
  ['::ffff:0:0', 96], // IPv4-mapped (RFC 4291): would reach the IPv4 address inside it
  ['64:ff9b::', 96], // NAT64 well-known prefix (RFC 6052): would reach any IPv4 address, private ones included
  ['64:ff9b:1::', 48], // local-use NAT64 (RFC 8215)
  ['100::', 64], // discard-only (RFC 6666)
  ['2001::', 23], // IETF protocol assignments, Teredo included (RFC 2928, RFC 4380)
  ['2001:db8::', 32], // documentation (RFC 3849)
  ['2002::', 16], // 6to4 (RFC 3056): would reach the IPv4 address inside it
  ['3fff::', 20], // documentation (RFC 9637)
  ['5f00::', 16], // segment routing SIDs (RFC 9602)
  ['fc00::', 7], // unique local (RFC 4193)
  ['fe80::', 10], // link-local (RFC 4291)
  ['fec0::', 10], // site-local, deprecated (RFC 3879)
  ['ff00::', 8], // multicast (RFC 4291)
] as const;

// Two lists: a BlockList also checks an IPv4 address against the IPv6 rules, as its IPv4-mapped form.
const specialV4 = new BlockList();
for (const [network, prefix] of IPV4_SPECIAL) specialV4.addSubnet(network, prefix, 'ipv4');
const specialV6 = new BlockList();
for (const [network, prefix] of IPV6_SPECIAL) specialV6.addSubnet(network, prefix, 'ipv6');

/** RFC 4291 §2.4: global unicast is 2000::/3; every other IPv6 address is special in some way. */
const globalUnicast = new BlockList();
globalUnicast.addSubnet('2000::', 3, 'ipv6');

/** Whether `address` (an IPv4 or IPv6 literal, without brackets) must never be connected to; true for anything that is not an address. */
export function isSpecialUseAddress(address: string): boolean {
  const family = isIP(address);
  if (family === 4) return specialV4.check(address, 'ipv4');
  if (family === 6) return !globalUnicast.check(address, 'ipv6') || specialV6.check(address, 'ipv6');
  return true;
}

/** Loopback only: what CLIENT_METADATA_ALLOW_LOOPBACK lets a development server fetch from. */
export function isLoopbackAddress(address: string): boolean {
  const family = isIP(address);
  if (family === 4) return address.startsWith('127.');
  return family === 6 && (address === '::1' || address === '0:0:0:0:0:0:0:1');
}
