/**
 * The attempts of one turn in one process (`attempts` in src/restate-deferred.ts): the server may
 * start a turn's handler again while an earlier attempt still runs here (a resume right after a
 * move, under load), and only the newest attempt may report the turn or kill its invocation.
 */
import { expect, test } from 'vitest';
import { attempts } from '../src/restate-deferred.js';

test('only the newest attempt of a turn speaks for it: an older one that ends later neither reports nor forgets the newer', () => {
  const runs = attempts();
  const older = runs.begin('t');
  expect(older()).toBe(true);
  const newer = runs.begin('t');
  expect(older()).toBe(false);
  expect(newer()).toBe(true);
  // The older attempt ends (its failure is not the turn's): the newer one still speaks for the turn.
  runs.end('t', older);
  expect(newer()).toBe(true);
  runs.end('t', newer);
  // Another turn's attempts are apart.
  const other = runs.begin('u');
  expect(other()).toBe(true);
  expect(newer()).toBe(false);
});
