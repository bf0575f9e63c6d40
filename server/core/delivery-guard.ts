import dns from 'node:dns';
import net from 'node:net';
import type { Config } from '../config.ts';

/**
 * Where mail and SMS may go (issue 27, item 1). The SMTP host and the SMS endpoint stored in the settings are
 * checked when they are saved and again, on the resolved address, every time the server connects (DNS can
 * change): loopback, link-local, private, shared (CGNAT) and unspecified addresses are refused unless
 * DELIVERY_ALLOW_PRIVATE is set. When DELIVERY_ALLOWED_HOSTS names hosts, only those may be used, wherever they
 * resolve (the operator vouches for them). SMTP_URL and SMS_ENDPOINT from the environment are the operator's
 * own choice and are not checked.
 */
export type DeliveryPolicy = Pick<Config, 'deliveryAllowPrivate' | 'deliveryAllowedHosts'>;

/** Why a destination is refused: a message key (settings catalogue) for the field. */
export type DeliveryRefusal =
  'settings.general.errors.host_private' | 'settings.general.errors.host_not_allowed';

const blocked = new net.BlockList();
for (const [address, prefix] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['224.0.0.0', 4],
  ['240.0.0.0', 4],
] as const)
  blocked.addSubnet(address, prefix, 'ipv4');
for (const [address, prefix] of [
  ['::', 128],
  ['::1', 128],
  ['fc00::', 7],
  ['fe80::', 10],
  ['ff00::', 8],
] as const)
  blocked.addSubnet(address, prefix, 'ipv6');

/**
 * nodemailer reads options from an SMTP URL's query; these would send the connection somewhere other than
 * the checked host (a proxy, a well-known service's host, direct delivery to the recipients' servers).
 */
export const UNSAFE_SMTP_PARAMS = ['proxy', 'service', 'host', 'direct', 'socketPath', 'localAddress'];

/** True for loopback, link-local, private, shared, multicast and unspecified addresses (IPv4-mapped too). */
export function isPrivateAddress(address: string): boolean {
  const family = net.isIP(address);
  if (family === 0) return false;
  return blocked.check(address, family === 6 ? 'ipv6' : 'ipv4');
}

/** `host` without the brackets of an IPv6 literal, lower-cased. */
function bareHost(host: string): string {
  return host.replace(/^\[(.*)\]$/, '$1').toLowerCase();
}

/** True when DELIVERY_ALLOWED_HOSTS names the host (`name` exactly, or `.suffix` for its subdomains). */
function isListed(policy: DeliveryPolicy, host: string): boolean {
  const name = bareHost(host).replace(/\.$/, '');
  return policy.deliveryAllowedHosts.some((entry) => {
    const allowed = entry.toLowerCase();
    return allowed.startsWith('.') ? name.endsWith(allowed) : name === allowed;
  });
}

/** The refusal for `host` before any lookup (the allow-list), or null. */
function listRefusal(policy: DeliveryPolicy, host: string): DeliveryRefusal | null {
  if (policy.deliveryAllowedHosts.length && !isListed(policy, host))
    return 'settings.general.errors.host_not_allowed';
  return null;
}

/** True when addresses of `host` need the private-range check (not allowed by the environment or the list). */
function mustCheckAddresses(policy: DeliveryPolicy, host: string): boolean {
  return !policy.deliveryAllowPrivate && !isListed(policy, host);
}

/**
 * The check on save: the host must pass the allow-list, and neither it (an address) nor any address it resolves
 * to now may be private. A name that does not resolve (yet) is accepted: the check on connect still holds.
 */
export async function deliveryHostRefusal(
  policy: DeliveryPolicy,
  host: string,
): Promise<DeliveryRefusal | null> {
  const listed = listRefusal(policy, host);
  if (listed) return listed;
  if (!mustCheckAddresses(policy, host)) return null;
  const name = bareHost(host);
  if (net.isIP(name)) return isPrivateAddress(name) ? 'settings.general.errors.host_private' : null;
  const addresses = await lookupAll(name).catch(() => []);
  return addresses.some((a) => isPrivateAddress(a.address)) ? 'settings.general.errors.host_private' : null;
}

/** An error a refused connection fails with (logged, never shown to a client). */
export class DeliveryRefusedError extends Error {
  constructor(host: string, reason: DeliveryRefusal) {
    super(`delivery to ${host} refused (${reason.slice(reason.lastIndexOf('.') + 1)})`);
    this.name = 'DeliveryRefusedError';
  }
}

/**
 * The check on connect: resolves `host` once and answers the address to connect to (the host itself for an
 * address), refusing a host off the allow-list or one that resolves to a private range. Connecting to the
 * answered address (not the name again) is what makes the check hold when DNS changes.
 */
export async function resolveDeliveryHost(policy: DeliveryPolicy, host: string): Promise<string> {
  const listed = listRefusal(policy, host);
  if (listed) throw new DeliveryRefusedError(host, listed);
  const name = bareHost(host);
  const addresses = net.isIP(name) ? [{ address: name, family: net.isIP(name) }] : await lookupAll(name);
  const first = addresses[0];
  if (!first) throw new Error(`no address for ${host}`);
  if (mustCheckAddresses(policy, host) && addresses.some((a) => isPrivateAddress(a.address)))
    throw new DeliveryRefusedError(host, 'settings.general.errors.host_private');
  return first.address;
}

/** Every address of `name`, bounded to 5 s (a dead resolver must not hold a request). */
async function lookupAll(name: string): Promise<dns.LookupAddress[]> {
  let timer: NodeJS.Timeout | undefined;
  try {
    return await Promise.race([
      dns.promises.lookup(name, { all: true }),
      new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new Error(`lookup of ${name} timed out`)), 5_000);
      }),
    ]);
  } finally {
    clearTimeout(timer);
  }
}
