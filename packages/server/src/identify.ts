/**
 * Who a request is from: `authorize`'s answer, or, without `authorize`, the one local user for a
 * loopback client that came through no proxy, from a local page (never a rebinding or cross-site one).
 */
import { checkOwner } from '@skilltree/core';
import { type Authorize, type ClientInfo, LOCAL_USER } from './handler-options.js';
import { HttpError } from './http.js';
import { isLoopbackAddress, isLoopbackHost, isLoopbackOrigin, proxyHeader } from './loopback.js';

function errorText(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/**
 * The user id of `request`, or an {@link HttpError} (401 without valid credentials, 403 for a user id
 * that cannot own chats or a client the handler does not serve without `authorize`).
 */
export async function identify(
  request: Request,
  client: ClientInfo,
  authorize: Authorize | undefined,
  log: (line: string) => void,
): Promise<string> {
  if (authorize) {
    const user = await authorize(request, client);
    if (typeof user !== 'string' || user === '') {
      throw new HttpError(401, 'unauthorized', 'Sign in first: this request has no valid credentials.');
    }
    try {
      // An id no store can keep exactly (a lone surrogate) or at all (NUL) never owns a chat.
      checkOwner(user);
    } catch (error) {
      log(`@skilltree/server: authorize returned a user id that cannot own chats: ${errorText(error)}`);
      throw new HttpError(403, 'invalid_user', 'This user id cannot be served: sign in with another account.');
    }
    return user;
  }
  // Behind a same-host proxy or tunnel every client's socket is loopback: refuse what came through one.
  const proxied = proxyHeader(request.headers);
  if (proxied) {
    throw new HttpError(
      403,
      'forbidden',
      `This server has no authorize option, and this request came through a proxy (it carries ${proxied}): ` +
        'behind a proxy every client looks local, so it serves nobody. Pass authorize to serve clients through a proxy.',
    );
  }
  if (client.remoteAddress === undefined) {
    throw new HttpError(
      403,
      'forbidden',
      'This server has no authorize option and does not know the client address, so it serves nobody. ' +
        'Pass authorize, or serve it with toNodeListener (which passes the address).',
    );
  }
  if (!isLoopbackAddress(client.remoteAddress)) {
    throw new HttpError(
      403,
      'forbidden',
      'This server has no authorize option: it serves loopback clients (127.0.0.1, ::1) only.',
    );
  }
  // A page elsewhere must not reach a local server by DNS rebinding or a cross-site request.
  if (!isLoopbackHost(request.headers.get('host') ?? new URL(request.url).host)) {
    throw new HttpError(403, 'forbidden', 'This server has no authorize option: use it through localhost.');
  }
  if (!isLoopbackOrigin(request.headers.get('origin'))) {
    throw new HttpError(403, 'forbidden', 'This server has no authorize option: pages on other sites cannot use it.');
  }
  return LOCAL_USER;
}
