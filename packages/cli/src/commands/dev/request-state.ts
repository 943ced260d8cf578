/**
 * The next request as the playground shows it, read from the session when the page asks.
 */
import type { Session } from '@skilltree/core';
import { errorMessage } from '../../kit/errors.js';
import type { DevState } from './protocol.js';

/** The request with `attribution` as a field (a getter, which JSON leaves out), or why it cannot be built. */
export function requestState(session: Session): Pick<DevState, 'request' | 'requestError'> {
  try {
    const built = session.request();
    return { request: { ...built, attribution: built.attribution }, requestError: null };
  } catch (error) {
    return { request: null, requestError: errorMessage(error) };
  }
}
