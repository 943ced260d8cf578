/**
 * The core's modules import one way: types → host → reconciler → tree → request → tools → loop →
 * session, and inside a layer in the order listed. So every module imports only modules listed
 * before it, and no import cycle can form. No module below `session.ts` imports it (the sessions
 * facade and its turn build on it); hooks and tools see `SessionHandle`.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test } from 'vitest';

const LAYERS: Record<string, string[]> = {
  types: ['types', 'telemetry-types', 'text', 'parts', 'files', 'model-accepts', 'cost', 'tool-name', 'react-version'],
  host: ['host', 'owner', 'store', 'runtime', 'components', 'json-schema', 'lru', 'window'],
  reconciler: ['host-config', 'reconciler'],
  tree: ['serialize'],
  request: [
    'prompt',
    'context-changes',
    'message-parse',
    'transcript',
    'place-context',
    'usage-estimate',
    'scripted-model',
    'print',
    'lifecycle-log',
    'lifecycle-check',
    'state',
    'turn-hooks',
    'telemetry',
    'telemetry-store',
    'state-events',
    'state-config',
    'state-render',
    'state-sync',
    'state-record',
    'state-create',
    'append-only',
    'deltas',
    'request',
    'view',
  ],
  tools: ['tool-call', 'waiting', 'skills', 'calls'],
  loop: ['budget', 'model-call', 'loop', 'snapshot'],
  session: [
    'session',
    'session-store',
    'memory-store',
    'sessions-key',
    'sessions-chat',
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
/** Position in the whole listing: layer by layer, then the order inside the layer. */
const position = new Map(
  Object.values(LAYERS)
    .flat()
    .map((m, i) => [m, i]),
);
const src = join(import.meta.dirname, '../src');

function imports(file: string): string[] {
  const text = readFileSync(join(src, file), 'utf8');
  return [...text.matchAll(/(?:from |import\()'\.\/([\w-]+)\.js'/g)].map((m) => m[1]);
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

test('inside a layer, modules import only the modules listed before them: no import cycle', () => {
  const wrong: string[] = [];
  for (const file of readdirSync(src).filter((f) => f.endsWith('.ts'))) {
    const module = file.replace(/\.ts$/, '');
    for (const target of imports(file)) {
      if (rank.get(target) !== rank.get(module)) continue;
      if ((position.get(target) ?? 999) >= (position.get(module) ?? -1)) wrong.push(`${module} → ${target}`);
    }
  }
  expect(wrong).toEqual([]);
});

test('the import reader sees imports: components.ts imports runtime.ts', () => {
  // Guards the rules above: a pattern that matched nothing would make them pass.
  expect(imports('components.ts')).toContain('runtime');
});

test('session.ts reads as the public API only: no helper functions beyond the facade', () => {
  const text = readFileSync(join(src, 'session.ts'), 'utf8');
  const functions = [...text.matchAll(/^(?:export )?function (\w+)/gm)].map((m) => m[1]);
  expect(
    functions.filter((f) => !['createSession', 'restoreSession', 'chatSession', 'stopped', 'stateOf'].includes(f)),
  ).toEqual([]);
});
