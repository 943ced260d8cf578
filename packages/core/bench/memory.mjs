// What one process holds per chat: the heap a mounted, idle chat costs, after gc, with React's
// production and development builds side by side (each in a child process of its own, since React
// picks its build when it is first loaded).
// Run: pnpm bench (builds @skilltree/core first), or `node packages/core/bench/memory.mjs`.
// Knobs: BENCH_CHATS=<n> (default 1000), `--json` prints one JSON line per build instead of the table.
//
// Rows, for two agents (5 skills of 20 tools each, and of 4 tools each; 3 loaded; empty transcript
// unless said):
//   session        restoreSession() with 3 skills loaded: the mounted React tree and the session state.
//   cached chat    createSessions on memoryStore(): a chat after one turn that read 3 skills and ran a
//                  tool of each (so each skill re-rendered), kept in the session cache, with its store record (what one `serve` process holds per chat).
//   store only     the same with cacheSize 0: only the memory store's record and messages.
//   cache's share  cached chat − store only: what the session cache holds per chat.
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const CHATS = Number(process.env.BENCH_CHATS ?? 1000);
const LOADED = ['skill_0', 'skill_1', 'skill_2'];

/** Heap after full collections (several: weak references and finalizers settle over more than one). */
async function settledHeap() {
  for (let i = 0; i < 4; i++) {
    global.gc();
    await new Promise((resolve) => setImmediate(resolve));
  }
  return process.memoryUsage().heapUsed;
}

/**
 * A model with no state of its own: on a user message it reads the three skills, then calls one tool
 * of each (so each skill re-renders, as a working chat's do), then answers.
 */
function workingModel() {
  return {
    name: 'reads-and-uses-three-skills',
    async generate(req) {
      const last = req.messages.findLastIndex((m) => m.role === 'user');
      const replies = req.messages.slice(last).filter((m) => m.role === 'assistant').length;
      if (replies === 0) {
        return { text: '', toolCalls: LOADED.map((name, i) => ({ id: `r${i}`, name: 'read_skill', input: { name } })) };
      }
      if (replies === 1) {
        return {
          text: '',
          toolCalls: LOADED.map((name, i) => ({ id: `t${i}`, name: `${name}_tool_0`, input: { id: 'A-1' } })),
        };
      }
      return { text: 'Done: your order is on its way.', toolCalls: [] };
    },
  };
}

async function measureSessions(core, agent, count) {
  const before = await settledHeap();
  const sessions = [];
  const snapshot = { version: 1, transcript: [], loadedSkills: LOADED, stores: {} };
  for (let i = 0; i < count; i++) sessions.push(core.restoreSession(agent(), snapshot));
  const after = await settledHeap();
  for (const s of sessions) s.dispose();
  return (after - before) / count;
}

async function measureChats(core, agent, count, cacheSize) {
  const before = await settledHeap();
  const sessions = core.createSessions(agent(), {
    store: core.memoryStore(),
    model: workingModel(),
    cacheSize,
  });
  for (let i = 0; i < count; i += 50) {
    await Promise.all(
      Array.from({ length: Math.min(50, count - i) }, (_, j) => sessions.send(`chat-${i + j}`, 'Where is my order?')),
    );
  }
  const info = await sessions.get('chat-0');
  if (info.loadedSkills.length !== LOADED.length) throw new Error(`expected 3 loaded skills, got ${info.loadedSkills}`);
  const after = await settledHeap();
  await sessions.close();
  return (after - before) / count;
}

/** Tools per skill of the two agents measured: the step bench's (20) and a small one (4). */
const SHAPES = [20, 4];

async function child() {
  const core = await import('../dist/index.js');
  const { makeAgent } = await import('./agent.mjs');
  // Warm every code path once (lazy imports, compiled code, React's internals): not counted.
  await measureSessions(core, () => makeAgent(5), 20);
  await measureChats(core, () => makeAgent(5), 20, 100);
  for (const tools of SHAPES) {
    const agent = () => makeAgent(5, true, tools);
    const session = await measureSessions(core, agent, CHATS);
    const cached = await measureChats(core, agent, CHATS, CHATS);
    const storeOnly = await measureChats(core, agent, CHATS, 0);
    const row = {
      env: process.env.NODE_ENV ?? '(unset)',
      tools,
      session,
      cached,
      storeOnly,
      cache: cached - storeOnly,
    };
    process.stdout.write(`${JSON.stringify(row)}\n`);
  }
}

function run(nodeEnv) {
  const env = { ...process.env };
  if (nodeEnv === undefined) delete env.NODE_ENV;
  else env.NODE_ENV = nodeEnv;
  return new Promise((resolve, reject) => {
    const proc = spawn(process.execPath, ['--expose-gc', fileURLToPath(import.meta.url), '--child'], {
      env,
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let out = '';
    proc.stdout.setEncoding('utf8').on('data', (d) => {
      out += d;
    });
    proc.once('close', (code) => {
      if (code !== 0) reject(new Error(`memory bench child (NODE_ENV=${nodeEnv}) exited with ${code}`));
      else
        resolve(
          out
            .trim()
            .split('\n')
            .map((line) => JSON.parse(line)),
        );
    });
  });
}

if (process.argv.includes('--child')) {
  await child();
} else {
  const kib = (bytes) => `${(bytes / 1024).toFixed(1)} KiB`.padStart(10);
  const rows = [...(await run('production')), ...(await run(undefined))];
  if (process.argv.includes('--json')) {
    for (const row of rows) console.log(JSON.stringify(row));
  } else {
    console.log(
      `\nmemory per chat: ${CHATS} chats, 5 skills (3 loaded) of 20 or 4 tools each, heap after gc (target: cache's share ≤ 60 KiB, what a process on Postgres or Redis holds per cached chat; "cached chat" adds the memory store's own copy)\n`,
    );
    console.log("NODE_ENV      tools/skill     session   cached chat   store only   cache's share");
    for (const r of rows) {
      console.log(
        `${r.env.padEnd(12)}  ${String(r.tools).padStart(11)}  ${kib(r.session)}  ${kib(r.cached)}   ${kib(r.storeOnly)}   ${kib(r.cache)}`,
      );
    }
  }
}
