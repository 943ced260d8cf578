import { version } from 'react';
import { expect, test } from 'vitest';
import { assertReactVersion } from '../src/host/react-version.js';

test('the installed react passes the start-up check', () => {
  expect(() => assertReactVersion(version)).not.toThrow();
  expect(() => assertReactVersion('19.3.0')).not.toThrow();
  expect(() => assertReactVersion('19.4.0-canary-abc')).not.toThrow();
});

test('react 18, 19.2 and 20 get an error that says what to install', () => {
  for (const found of ['18.3.1', '19.2.0', '20.0.0']) {
    expect(() => assertReactVersion(found)).toThrow(
      `@skilltree/core needs react ^19.3.0 (its renderer, react-reconciler 0.34, works with no other), but found react ${found}. Install a matching one: npm install react@^19.3.0`,
    );
  }
  expect(() => assertReactVersion('')).toThrow(/found react \(unknown version\)/);
});
