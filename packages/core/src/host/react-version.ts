/**
 * A start-up check of the installed `react`: react-reconciler 0.34 works with react ^19.3 only, and
 * any other react fails later with an error that names React internals instead of the cause.
 */
import { version } from 'react';

/** The react versions this build of `@skilltree/core` runs with (react-reconciler 0.34's peer range). */
export const SUPPORTED_REACT = '^19.3.0';

/** Throws a clear error unless `found` is a react 19 release from 19.3 on. */
export function assertReactVersion(found: string = version): void {
  const match = /^(\d+)\.(\d+)\./.exec(found);
  if (match && Number(match[1]) === 19 && Number(match[2]) >= 3) return;
  throw new Error(
    `@skilltree/core needs react ${SUPPORTED_REACT} (its renderer, react-reconciler 0.34, works with no other), ` +
      `but found react ${found || '(unknown version)'}. Install a matching one: npm install react@${SUPPORTED_REACT}`,
  );
}

assertReactVersion();
