/**
 * Loopback checks for a handler without `authorize`: the peer's address (as the server saw it, never a
 * header the client sent), the headers a proxy adds (behind a same-host proxy every client's socket is
 * loopback), and the `Host`/`Origin` a browser sent, so that a web page cannot reach a local server
 * through DNS rebinding or a cross-site form.
 */

/**
 * Headers that say a request came through a proxy or tunnel, as they are usually spelled. A request
 * that carries any of them (with any value, the empty one included) is not from this machine's user:
 * nginx, Caddy, Apache, ngrok and Cloudflare tunnels add at least one.
 */
export const PROXY_HEADERS: readonly string[] = [
  'Forwarded',
  'X-Forwarded-For',
  'X-Real-IP',
  'X-Forwarded-Host',
  'X-Forwarded-Proto',
  'Via',
  'CF-Connecting-IP',
  'True-Client-IP',
];

/** The first of {@link PROXY_HEADERS} that `headers` carries (header names are case-insensitive), or null. */
export function proxyHeader(headers: Headers): string | null {
  return PROXY_HEADERS.find((name) => headers.has(name)) ?? null;
}

/** 4 for a dotted IPv4 address, 6 for an IPv6 address (without a zone), else 0 (as `node:net` `isIP`, without Node). */
function isIP(ip: string): 0 | 4 | 6 {
  if (/^(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)(\.(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)){3}$/.test(ip)) return 4;
  if (!/^[0-9a-f:]+$/i.test(ip) || !ip.includes(':')) return 0;
  return expand(ip) === null ? 0 : 6;
}

/** Whether `address` (as `socket.remoteAddress` gives it) is a loopback address: 127.0.0.0/8 or ::1. */
export function isLoopbackAddress(address: string | undefined | null): boolean {
  if (!address) return false;
  let ip = address.trim().toLowerCase();
  if (ip.startsWith('[') && ip.endsWith(']')) ip = ip.slice(1, -1);
  const zone = ip.indexOf('%');
  if (zone !== -1) ip = ip.slice(0, zone);
  const mapped = /^(?:0{0,4}:){0,5}(?:0{0,4}:)?ffff:(\d{1,3}(?:\.\d{1,3}){3})$/.exec(ip);
  if (mapped) ip = mapped[1];
  const version = isIP(ip);
  if (version === 4) return ip.split('.')[0] === '127';
  if (version === 6) {
    const groups = expand(ip) ?? [];
    return groups.length === 8 && groups.slice(0, 7).every((g) => g === 0) && groups[7] === 1;
  }
  return false;
}

/** The eight 16-bit groups of an IPv6 address without an embedded IPv4 part, or null. */
function expand(ip: string): number[] | null {
  if (ip.includes('.') || ip.split('::').length > 2) return null;
  const [head, tail] = ip.includes('::') ? ip.split('::') : [ip, undefined];
  const left = head ? head.split(':') : [];
  const right = tail ? tail.split(':') : [];
  const missing = 8 - left.length - right.length;
  if (tail === undefined ? missing !== 0 : missing < 1) return null;
  const groups = [...left, ...Array<string>(tail === undefined ? 0 : missing).fill('0'), ...right];
  if (groups.some((g) => !/^[0-9a-f]{1,4}$/i.test(g))) return null;
  return groups.map((g) => Number.parseInt(g, 16));
}

/**
 * Whether a `Host` header (or the host of an `Origin`) names this machine: `localhost` (or a
 * `*.localhost` name), a 127.x address, or `[::1]`, with any port.
 */
export function isLoopbackHost(host: string | null | undefined): boolean {
  if (!host) return false;
  let name = host.trim().toLowerCase();
  if (name.startsWith('[')) {
    const end = name.indexOf(']');
    if (end === -1) return false;
    return isLoopbackAddress(name.slice(1, end));
  }
  const colon = name.indexOf(':');
  if (colon !== -1) name = name.slice(0, colon);
  if (name.endsWith('.')) name = name.slice(0, -1);
  if (name === 'localhost' || name.endsWith('.localhost')) return true;
  return isIP(name) === 4 && isLoopbackAddress(name);
}

/** Whether an `Origin` header is absent or names a page on this machine (`Origin: null` does not). */
export function isLoopbackOrigin(origin: string | null): boolean {
  if (origin === null) return true;
  try {
    const url = new URL(origin);
    return (url.protocol === 'http:' || url.protocol === 'https:') && isLoopbackHost(url.host);
  } catch {
    return false;
  }
}
