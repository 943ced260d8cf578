/**
 * The core's modules import one way: types → host → reconciler → tree → request → tools → loop →
 * session. No module below `session.ts` imports it (the sessions facade and its turn build on it);
 * hooks and tools see `SessionHandle`.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test } from 'vitest';

const LAYERS: Record<string, string[]> = {
  types: ['types', 'text', 'cost', 'model-price', 'react-version'],
  host: ['host', 'owner', 'runtime', 'store', 'components', 'json-schema', 'lru', 'window'],
  reconciler: ['host-config', 'reconciler'],
  tree: ['serialize'],
  request: [
    'prompt',
    'context-changes',
    'transcript',
    'place-context',
    'usage-estimate',
    'scripted-model',
    'print',
    'telemetry',
    'lifecycle-log',
    'state',
    'deltas',
    'request',
    'view',
  ],
  tools: ['tool-call', 'skills', 'calls'],
  loop: ['budget', 'model-call', 'loop', 'snapshot'],
  session: [
    'session',
    'session-store',
    'memory-store',
    'sessions-key',
    'sessions-cache',
    'sessions-lease',
    'sessions-running',
    'sessions-turn',
    'sessions',
  ],
  index: ['index'],
};
const ORDER = Object.keys(LAYERS);
const rank = new Map(
  Object.entries(LAYERS).flatMap(([layer, modules]) => modules.map((m) => [m, ORDER.indexOf(layer)])),
);
const src = join(import.meta.dirname, '../src');

function imports(file: string): string[] {
  const text = readFileSync(join(src, file), 'utf8');
  return [...text.matchAll(/from '\.\/([\w-]+)\.js'/g)].map((m) => m[1]);
}

test('every module has a layer', () => {
  const modules = readdirSync(src)
    .filter((f) => f.endsWith('.ts'))
    .map((f) => f.replace(/\.ts$/, ''));
  expect(modules.filter((m) => !rank.has(m))).toEqual([]);
});

test('modules import one way: never from a later layer, and nothing below the facade imports session.ts', () => {
  const wrong: string[] = [];
  for (const file of readdirSync(src).filter((f) => f.endsWith('.ts'))) {
    const module = file.replace(/\.ts$/, '');
    for (const target of imports(file)) {
      if ((rank.get(target) ?? 99) > (rank.get(module) ?? -1)) wrong.push(`${module} → ${target}`);
      if (target === 'session' && !['index', 'sessions', 'sessions-turn'].includes(module)) {
        wrong.push(`${module} → session`);
      }
    }
  }
  expect(wrong).toEqual([]);
});

test('session.ts reads as the public API only: no helper functions beyond the facade', () => {
  const text = readFileSync(join(src, 'session.ts'), 'utf8');
  const functions = [...text.matchAll(/^(?:export )?function (\w+)/gm)].map((m) => m[1]);
  expect(functions.filter((f) => !['createSession', 'restoreSession', 'stopped', 'stateOf'].includes(f))).toEqual([]);
});
