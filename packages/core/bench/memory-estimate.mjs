// How well `estimateSessionBytes` (what `createSessions`' cache.maxBytes counts) follows the heap a
// cached chat holds, for agents of several shapes and transcripts of several lengths. React's
// production build (this script sets NODE_ENV before React loads). Prints one row per shape: the
// cache's share per chat (heap with the chats cached − heap with only the store's records, after
// gc) beside the estimate. docs/serving.md ("What one process holds") has the table.
// Run: `node --expose-gc packages/core/bench/memory-estimate.mjs` after `pnpm build`.
// Knobs: BENCH_CHATS=<n> chats per shape (default 300).
process.env.NODE_ENV = 'production';
const core = await import('../dist/index.js');
const { estimateSessionBytes } = await import('../dist/provider.js');
const { makeAgent } = await import('./agent.mjs');
const { createElement: h, Fragment } = await import('react');

const CHATS = Number(process.env.BENCH_CHATS ?? 300);

async function settledHeap() {
  for (let i = 0; i < 4; i++) {
    global.gc();
    await new Promise((resolve) => setImmediate(resolve));
  }
  return process.memoryUsage().heapUsed;
}

/** Reads `loaded` (if any) and runs a tool of each on every turn, then answers. */
function model(loaded) {
  return {
    name: 'estimate-bench',
    async generate(req) {
      const last = req.messages.findLastIndex((m) => m.role === 'user');
      const replies = req.messages.slice(last).filter((m) => m.role === 'assistant').length;
      if (loaded.length > 0 && replies === 0) {
        return { text: '', toolCalls: loaded.map((name, i) => ({ id: `r${i}`, name: 'read_skill', input: { name } })) };
      }
      if (loaded.length > 0 && replies === 1) {
        return {
          text: '',
          toolCalls: loaded.map((name, i) => ({ id: `t${i}`, name: `${name}_tool_0`, input: { id: 'A-1' } })),
        };
      }
      return { text: 'Done: your order is on its way.', toolCalls: [] };
    },
  };
}

async function perChat(agent, loaded, turns, cacheSize) {
  const before = await settledHeap();
  const sessions = core.createSessions(agent(), { store: core.memoryStore(), model: model(loaded), cacheSize });
  for (let turn = 0; turn < turns; turn++) {
    for (let i = 0; i < CHATS; i += 50) {
      await Promise.all(
        Array.from({ length: Math.min(50, CHATS - i) }, (_, j) => sessions.send(`chat-${i + j}`, 'Where is my order?')),
      );
    }
  }
  const after = await settledHeap();
  await sessions.close();
  return (after - before) / CHATS;
}

/** The estimate of one chat of `createSessions` after its turns, as the cache takes it (the session caught with useSession). */
let caught = null;
/** Catches the session it renders in (see estimate). */
function Catch() {
  caught = core.useSession();
  return null;
}

async function estimate(agent, loaded, turns) {
  const sessions = core.createSessions(h(Fragment, null, h(Catch), agent()), { model: model(loaded) });
  for (let turn = 0; turn < turns; turn++) await sessions.send('one', 'Where is my order?');
  const bytes = estimateSessionBytes(caught);
  await sessions.close();
  return bytes;
}

const three = ['skill_0', 'skill_1', 'skill_2'];
const shapes = [
  { label: '1 skill of 20 tools, 1 turn', agent: () => makeAgent(1, true, 20), loaded: ['skill_0'], turns: 1 },
  { label: '5 skills of 4 tools (3 loaded), 1 turn', agent: () => makeAgent(5, true, 4), loaded: three, turns: 1 },
  { label: '5 skills of 20 tools (3 loaded), 1 turn', agent: () => makeAgent(5, true, 20), loaded: three, turns: 1 },
  { label: '5 skills of 20 tools (3 loaded), 10 turns', agent: () => makeAgent(5, true, 20), loaded: three, turns: 10 },
  { label: '5 skills of 20 tools (3 loaded), 30 turns', agent: () => makeAgent(5, true, 20), loaded: three, turns: 30 },
  { label: '5 skills of 20 tools (none loaded), 1 turn', agent: () => makeAgent(5, true, 20), loaded: [], turns: 1 },
  { label: '20 skills of 20 tools (3 loaded), 1 turn', agent: () => makeAgent(20, true, 20), loaded: three, turns: 1 },
];
if (process.argv.includes('--estimates')) {
  // Only the estimates (no heap measurement): quick, for trying constants.
  for (const shape of shapes)
    console.log(shape.label.padEnd(44), (await estimate(shape.agent, shape.loaded, shape.turns)) / 1024);
  process.exit(0);
}
// Warm every code path once: not counted.
await perChat(() => makeAgent(5, true, 4), three, 1, 100);
const kib = (bytes) => `${(bytes / 1024).toFixed(1)} KiB`;
console.log(`\nestimateSessionBytes against the heap: ${CHATS} chats a shape, React production build\n`);
for (const shape of shapes) {
  const cached = await perChat(shape.agent, shape.loaded, shape.turns, CHATS);
  const storeOnly = await perChat(shape.agent, shape.loaded, shape.turns, 0);
  const estimated = await estimate(shape.agent, shape.loaded, shape.turns);
  const measured = cached - storeOnly;
  console.log(
    `${shape.label.padEnd(44)} measured ${kib(measured).padStart(10)}   estimated ${kib(estimated).padStart(10)}   ${((estimated / measured - 1) * 100).toFixed(0)}%`,
  );
}
