/**
 * Core is a house of folders, one per layer, listed here from the ground up. A module imports only
 * modules of its own folder or of folders below it, never from a folder above; inside a folder no
 * import cycle forms. The root holds the two faces: `index.ts` (what an app writes with) and
 * `provider.ts` (what a model adapter implements). `docs/architecture.md` draws the same table.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { expect, test } from 'vitest';

/** The layers, ground floor first, and what each holds. */
const FOLDERS: Record<string, string> = {
  types: 'the provider-neutral shapes: messages, requests, the model, options, session results',
  parts: 'building and reading typed parts, text as a model reads it, the tool-name rule',
  files: 'files as hostile input: sniffing, limits, what a model reads of them',
  host: 'the host tree: nodes, components, the reconciler, the serializer and prompt pieces',
  lifecycle: 'the lifecycle as the model was told it: loaded order, context changes, the log and its check',
  transcript: 'the transcript, its window, and messages from outside checked and upgraded',
  state: "a session's state and the steps on it: create, render, sync, record, events, config",
  request: 'the next request: classic, append-only and delta layouts, placement, estimates, printing',
  observe: 'what watches a turn: hooks, traces, prices and budgets',
  turn: 'the turn: model calls, tool calls, skills, waiting calls and the loop',
  subagents: 'subagent runs: mounting a run, running it with the loop, its cost, usage and events',
  sessions: 'sessions: the facade, snapshots, stores, and many chats over a store',
};
const ORDER = Object.keys(FOLDERS);
/** Files at the root of src/: the package's faces, above every folder. */
const FACES = ['index', 'provider'];

const src = join(import.meta.dirname, '../src');

function walk(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory() ? walk(join(dir, entry.name)) : entry.name.endsWith('.ts') ? [join(dir, entry.name)] : [],
  );
}
const files = walk(src).map((file) => relative(src, file).replace(/\.ts$/, ''));

/** The core modules a module imports (static and dynamic), as paths relative to src without `.ts`. */
function imports(module: string): string[] {
  const text = readFileSync(join(src, `${module}.ts`), 'utf8');
  return [...text.matchAll(/(?:from |import\()'(\.{1,2}\/[\w\-/.]+)\.js'/g)].map((m) =>
    relative(src, resolve(dirname(join(src, module)), m[1])),
  );
}

/** A module's layer: its folder's place in ORDER (faces above every folder). */
function rank(module: string): number {
  const folder = module.includes('/') ? module.split('/')[0] : null;
  if (folder === null) return FACES.includes(module) ? ORDER.length : -1;
  return ORDER.indexOf(folder);
}

test('every module lives in a layer folder, and every folder is a layer', () => {
  expect(files.filter((m) => rank(m) === -1)).toEqual([]);
  const folders = readdirSync(src, { withFileTypes: true })
    .filter((e) => e.isDirectory())
    .map((e) => e.name);
  expect(folders.sort()).toEqual([...ORDER].sort());
});

test('each face is a file at the root of src and an entry of the package exports, and the exports are the faces', () => {
  const manifest = JSON.parse(readFileSync(join(src, '../package.json'), 'utf8')) as {
    exports: Record<string, { types: string; default: string } | string>;
  };
  const entries = Object.entries(manifest.exports).filter(([subpath]) => subpath !== './package.json');
  const faceOf = (subpath: string) => (subpath === '.' ? 'index' : subpath.slice(2));
  expect(entries.map(([subpath]) => faceOf(subpath)).sort()).toEqual([...FACES].sort());
  for (const [subpath, target] of entries) {
    const face = faceOf(subpath);
    expect(existsSync(join(src, `${face}.ts`)), `src/${face}.ts`).toBe(true);
    expect(target).toEqual({ types: `./dist/${face}.d.ts`, default: `./dist/${face}.js` });
  }
});

test('a folder imports only its own folder and the folders below it', () => {
  const wrong: string[] = [];
  for (const module of files) {
    for (const target of imports(module)) {
      if (!existsSync(join(src, `${target}.ts`))) wrong.push(`${module} → ${target} (no such module)`);
      else if (rank(target) > rank(module)) wrong.push(`${module} → ${target}`);
      else if (FACES.includes(target)) wrong.push(`${module} → ${target} (a face is imported by no module)`);
    }
  }
  expect(wrong).toEqual([]);
});

test('inside a folder, imports form no cycle', () => {
  const cycles: string[] = [];
  const state = new Map<string, 'open' | 'done'>();
  const visit = (module: string, path: string[]): void => {
    if (state.get(module) === 'done') return;
    if (state.get(module) === 'open') {
      cycles.push([...path.slice(path.indexOf(module)), module].join(' → '));
      return;
    }
    state.set(module, 'open');
    for (const target of imports(module)) if (rank(target) === rank(module)) visit(target, [...path, module]);
    state.set(module, 'done');
  };
  for (const module of files) visit(module, []);
  expect(cycles).toEqual([]);
});

test('no file in src is over 400 lines', () => {
  const lineCount = (m: string) =>
    readFileSync(join(src, `${m}.ts`), 'utf8')
      .trimEnd()
      .split('\n').length;
  const long = files
    .map((m) => [m, lineCount(m)] as const)
    .filter(([, lines]) => lines > 400)
    .map(([m, lines]) => `${m}.ts: ${lines} lines`);
  expect(long).toEqual([]);
});

test('the import reader sees imports: host/components imports host/runtime, request/request imports state/state', () => {
  // Guards the rules above: a pattern that matched nothing would make them pass.
  expect(imports('host/components')).toContain('host/runtime');
  expect(imports('request/request')).toContain('state/state');
});

test('session.ts reads as the public API only: no helper functions beyond the facade', () => {
  const text = readFileSync(join(src, 'sessions/session.ts'), 'utf8');
  const functions = [...text.matchAll(/^(?:export )?function (\w+)/gm)].map((m) => m[1]);
  expect(functions.filter((f) => !['createSession', 'restoreSession', 'stopped', 'stateOf'].includes(f))).toEqual([]);
});

test("only sessions/chat-session reaches the state behind a Session: a chat's turn goes through its ChatSession", () => {
  const reaching = files.filter(
    (m) => m !== 'sessions/session' && /\bstateOf\b/.test(readFileSync(join(src, `${m}.ts`), 'utf8')),
  );
  expect(reaching).toEqual(['sessions/chat-session']);
});

/**
 * The records of `SessionState` and the modules (or folders) that own them: only these touch a
 * record's fields; every other module reads through `state/reads.ts` or the owner's functions.
 */
const RECORD_OWNERS: Record<string, string[]> = {
  skills: ['state/', 'turn/skills'],
  told: ['state/', 'request/'],
  window: ['state/', 'request/'],
  turn: ['state/', 'turn/loop'],
  waiting: ['state/', 'turn/waiting', 'turn/loop'],
  usage: ['state/', 'turn/loop'],
  tracing: ['state/create', 'observe/tracing'],
  runs: ['state/'],
};
/** Modules whose `state` is a store's record (`StoredState`), not a session's state. */
const STORED_STATE = ['sessions/session-store', 'sessions/sessions', 'files/files'];

test("a SessionState record's fields are touched only by the layer that owns it", () => {
  const outside: string[] = [];
  const access = new RegExp(
    `(?<![\\w$.])(?:this\\.#state|state)\\.(${Object.keys(RECORD_OWNERS).join('|')})\\.(\\w+)`,
    'g',
  );
  for (const module of files) {
    if (STORED_STATE.includes(module)) continue;
    const text = readFileSync(join(src, `${module}.ts`), 'utf8');
    for (const m of text.matchAll(access)) {
      if (!RECORD_OWNERS[m[1]].some((owner) => module === owner || module.startsWith(owner))) {
        outside.push(`${module}: ${m[0]}`);
      }
    }
  }
  expect(outside).toEqual([]);
});

test('the record rule sees accesses: turn/loop touches state.turn.busy', () => {
  expect(readFileSync(join(src, 'turn/loop.ts'), 'utf8')).toMatch(/state\.turn\.busy/);
});
