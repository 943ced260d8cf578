/**
 * A placeholder login: the user types a name and gets a signed, HttpOnly cookie that names them.
 * There is no password. Replace `userFrom` with your auth provider (a session cookie from
 * Auth.js, Clerk, Lucia, a JWT…); `createHandler`'s `authorize` only needs the user id it returns.
 */
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

/** The cookie that carries the signed user name. */
export const COOKIE = 'webchat_user';

/** User names the login accepts. */
export const USER_NAME = /^[A-Za-z0-9_-]{1,40}$/;

/** A random secret for this process (sessions signed with it end when it restarts). */
export function randomSecret(): string {
  return randomBytes(32).toString('base64url');
}

function mac(name: string, secret: string): string {
  return createHmac('sha256', secret).update(name).digest('base64url');
}

/** The cookie value for `name`: the name and its signature. */
export function sign(name: string, secret: string): string {
  return `${name}.${mac(name, secret)}`;
}

/** The user a cookie value names, or null when it is missing, malformed or forged. */
export function verify(value: string | undefined, secret: string): string | null {
  if (!value) return null;
  const dot = value.lastIndexOf('.');
  if (dot <= 0) return null;
  const name = value.slice(0, dot);
  if (!USER_NAME.test(name)) return null;
  const given = Buffer.from(value.slice(dot + 1));
  const expected = Buffer.from(mac(name, secret));
  return given.length === expected.length && timingSafeEqual(given, expected) ? name : null;
}

/** The user of a request, from its cookie. */
export function userFrom(request: Request, secret: string): string | null {
  const header = request.headers.get('cookie') ?? '';
  for (const part of header.split(';')) {
    const [key, ...rest] = part.trim().split('=');
    if (key === COOKIE) return verify(decodeURIComponent(rest.join('=')), secret);
  }
  return null;
}
