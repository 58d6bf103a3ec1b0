/**
 * The one outbound address policy of the API: which addresses count as internal (loopback, private networks,
 * link-local — the cloud's metadata service —, reserved and documentation ranges). Everything the portal fetches or
 * delivers to an address someone else typed in goes through it: order transmission (transmission/outbound.ts, with
 * its allowlist of hosts and ports) and the media a supplier catalogue names by URL (catalogue-import/media-fetch.ts,
 * with MEDIA_FETCH_ALLOW). Each caller refuses an internal address unless its operator's allowlist names it.
 */
import net from 'node:net';

const restricted: { kind: string; list: net.BlockList }[] = (() => {
  const make = (ranges: [string, number, 'ipv4' | 'ipv6'][]) => {
    const list = new net.BlockList();
    for (const [address, prefix, type] of ranges) list.addSubnet(address, prefix, type);
    return list;
  };
  return [
    {
      kind: 'Loopback',
      list: make([
        ['127.0.0.0', 8, 'ipv4'],
        ['::1', 128, 'ipv6'],
      ]),
    },
    {
      kind: 'privates Netz',
      list: make([
        ['10.0.0.0', 8, 'ipv4'],
        ['172.16.0.0', 12, 'ipv4'],
        ['192.168.0.0', 16, 'ipv4'],
        ['100.64.0.0', 10, 'ipv4'],
        ['fc00::', 7, 'ipv6'],
      ]),
    },
    {
      kind: 'Link-Local',
      list: make([
        ['169.254.0.0', 16, 'ipv4'],
        ['fe80::', 10, 'ipv6'],
      ]),
    },
    {
      kind: 'reservierte Adresse',
      list: make([
        ['0.0.0.0', 8, 'ipv4'],
        ['192.0.0.0', 24, 'ipv4'],
        ['192.0.2.0', 24, 'ipv4'],
        ['198.18.0.0', 15, 'ipv4'],
        ['198.51.100.0', 24, 'ipv4'],
        ['203.0.113.0', 24, 'ipv4'],
        ['224.0.0.0', 4, 'ipv4'],
        ['240.0.0.0', 4, 'ipv4'],
        ['::', 128, 'ipv6'],
        ['64:ff9b::', 96, 'ipv6'],
        ['100::', 64, 'ipv6'],
        ['2001:db8::', 32, 'ipv6'],
        ['ff00::', 8, 'ipv6'],
      ]),
    },
  ];
})();

/** An IPv4-mapped IPv6 address (::ffff:127.0.0.1) is checked as the IPv4 address it is. */
export function plainAddress(address: string): { address: string; type: 'ipv4' | 'ipv6' } {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  if (mapped) return { address: mapped[1], type: 'ipv4' };
  return { address, type: net.isIPv6(address) ? 'ipv6' : 'ipv4' };
}

/** 'Loopback', 'privates Netz', … for an internal address; null for a public one. */
export function internalKind(address: string): string | null {
  const a = plainAddress(address);
  return restricted.find((r) => r.list.check(a.address, a.type))?.kind ?? null;
}
