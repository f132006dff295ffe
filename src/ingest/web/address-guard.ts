/** Which network addresses a web ingest may reach: public unicast only, unless private ones are allowed. */
import { lookup as dnsLookup, type LookupAddress, type LookupOptions } from "node:dns";
import { isIP } from "node:net";
import ipaddr from "ipaddr.js";
import { FerretError } from "../../spec/errors.js";

/** A URL whose host resolves to a private, loopback, link-local or otherwise non-public address. */
export class BlockedAddressError extends FerretError {
  constructor(message: string, context: { url?: string; host?: string; address?: string } = {}) {
    super("BlockedAddressError", message, { category: "user", context });
  }
}

/** True for a public unicast address (ipaddr.js range `unicast`); IPv4-mapped IPv6 is judged as IPv4. */
export function isPublicAddress(address: string): boolean {
  if (!ipaddr.isValid(address)) return false;
  let parsed = ipaddr.parse(address);
  if (parsed.kind() === "ipv6" && (parsed as ipaddr.IPv6).isIPv4MappedAddress())
    parsed = (parsed as ipaddr.IPv6).toIPv4Address();
  return parsed.range() === "unicast";
}

/** The host of a URL as a bare address or name (`[::1]` becomes `::1`). */
export function bareHost(url: URL): string {
  const host = url.hostname;
  return host.startsWith("[") && host.endsWith("]") ? host.slice(1, -1) : host;
}

/** Refuses a URL whose host is an IP literal that is not public (names are checked after DNS, in `guardedLookup`). */
export function checkLiteralHost(url: URL, allowPrivate: boolean): void {
  const host = bareHost(url);
  if (allowPrivate || isIP(host) === 0) return;
  if (!isPublicAddress(host))
    throw new BlockedAddressError(`${url.href}: ${host} is not a public address (use --allow-private to fetch it)`, {
      url: url.href,
      host,
      address: host,
    });
}

type LookupCallback = (error: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void;

/**
 * A `dns.lookup` for socket connections that refuses any host resolving to a non-public address, so a name
 * pointing at the internal network is caught after resolution, on every connection (redirects included).
 */
export function guardedLookup(allowPrivate: boolean) {
  return (hostname: string, options: LookupOptions, callback: LookupCallback): void => {
    dnsLookup(hostname, { ...options, all: true }, (error, addresses) => {
      if (error) return callback(error, []);
      const list = addresses as LookupAddress[];
      const blocked = allowPrivate ? undefined : list.find((a) => !isPublicAddress(a.address));
      if (blocked) {
        const refused = new BlockedAddressError(
          `${hostname} resolves to ${blocked.address}, not a public address (use --allow-private to fetch it)`,
          { host: hostname, address: blocked.address },
        );
        return callback(refused as unknown as NodeJS.ErrnoException, []);
      }
      if (options.all) return callback(null, list);
      const first = list[0];
      if (!first) return callback(Object.assign(new Error(`${hostname}: no address`), { code: "ENOTFOUND" }), []);
      callback(null, first.address, first.family);
    });
  };
}
