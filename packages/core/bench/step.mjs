// The framework's own cost per model step, measured side by side in one run.
// Run: pnpm bench (builds @skilltree/core first). Plain JS over dist/ so it measures what users run.
//
// First, one tool-loop step through send() against its floor, JSON.stringify of the same request
// (target: ≤ 2× at every size; docs/architecture.md, "The step and its floor"). Knobs for working on
// it: `--loop-only` stops after that table; BENCH_ROWS=<label prefix>, BENCH_SIZES=10,1000 and
// BENCH_TURNS=60 pick rows, sizes and turns.
//
// Median of three runs on a shared, busy 2-core VM (load 11–49), before (main 0a0628d) → after the
// incremental usage estimate, the same runs back to back:
//   plain                   10: 2.76 → 1.56   1,000: 2.87 → 1.30   100,000: 2.32 → 1.41
//   re-renders its skill    10: 4.77 → 3.67   1,000: 4.22 → 3.14   100,000: 3.85 → 2.76
//   append-only, reasoning  10: 1.68 → 0.74   1,000: 1.81 → 0.69   100,000: 1.70 → 0.62
// The re-rendering step, after its tools kept their props object, specs and checks when only their
// inline `run` changed (main f568040 → after, median of three, load 35–43):
//   re-renders its skill    10: 3.86 → 2.79   1,000: 2.88 → 2.18   100,000: 2.63 → 1.94
// After `send`'s turn stopped handing out events, a tool call stopped making an AbortController, a
// listener and a timer of its own, and a commit that changes no tool kept the tool list (main
// 5627810 → after, median of three, load 10–12):
//   plain                   10: 1.50 → 0.76   1,000: 1.18 → 0.64   100,000: 1.27 → 0.69
//   re-renders its skill    10: 2.58 → 1.90   1,000: 2.01 → 1.50   100,000: 1.68 → 1.12
//   append-only, reasoning  10: 0.57 → 0.41   1,000: 0.51 → 0.26   100,000: 0.49 → 0.25
// Every row is under 2×; React's render and commit are most of what is left (docs/architecture.md,
// "Under 2× at every size").
import { performance } from 'node:perf_hooks';
import { trace } from '@opentelemetry/api';
import { BasicTracerProvider, BatchSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { createSession, restoreSession, scriptedModel } from '../dist/index.js';
import { placeContext } from '../dist/provider.js';
import { makeAgent, TOOLS_PER_SKILL } from './agent.mjs';

const LOADED = 3;

function syntheticTranscript(size) {
  const transcript = [];
  let id = 0;
  while (transcript.length < size) {
    transcript.push({
      role: 'user',
      content: `Message ${transcript.length}: please check order A-${transcript.length}.`,
    });
    const callId = `h${++id}`;
    transcript.push({
      role: 'assistant',
      content: 'Looking.',
      toolCalls: [{ id: callId, name: 'skill_0_tool_0', input: { id: 'A' } }],
    });
    transcript.push({ role: 'tool', toolCallId: callId, name: 'skill_0_tool_0', content: 'ok 0' });
    transcript.push({ role: 'assistant', content: 'Done: your order is on its way.' });
  }
  return transcript.slice(0, size);
}

async function makeSession(skillCount, transcriptSize, placement = 'end', options = {}) {
  const snapshot = {
    version: 1,
    transcript: syntheticTranscript(transcriptSize),
    loadedSkills: Array.from({ length: LOADED }, (_, i) => `skill_${i}`),
    stores: {},
  };
  return restoreSession(makeAgent(skillCount), snapshot, { contextPlacement: placement, ...options });
}

function median(values) {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
}

/** One step as the loop runs it: the tool call settles and is recorded, then the next request is built. */
async function measureStep(skillCount, transcriptSize, rounds = 300, options = {}) {
  const session = await makeSession(skillCount, transcriptSize, 'end', options);
  const frameworkTimes = [];
  const stringifyTimes = [];
  for (let i = 0; i < rounds + 30; i++) {
    const tool = `skill_${i % LOADED}_tool_${i % TOOLS_PER_SKILL}`;
    const [call] = session.addAssistantMessage({
      content: '',
      toolCalls: [{ id: '', name: tool, input: { id: 'A', query: 'x' } }],
    }).toolCalls;
    const t0 = performance.now();
    await session.callTool(call);
    const request = session.request();
    const t1 = performance.now();
    JSON.stringify(request);
    const t2 = performance.now();
    if (i >= 30) {
      frameworkTimes.push(t1 - t0);
      stringifyTimes.push(t2 - t1);
    }
  }
  session.dispose();
  const framework = median(frameworkTimes);
  const floor = median(stringifyTimes);
  return { framework, floor, ratio: framework / floor };
}

async function measureMemory(count = 1000) {
  global.gc?.();
  const before = process.memoryUsage().heapUsed;
  const sessions = [];
  for (let i = 0; i < count; i++) sessions.push(await makeSession(5, 0));
  global.gc?.();
  const after = process.memoryUsage().heapUsed;
  for (const s of sessions) s.dispose();
  return (after - before) / count;
}

function placedBytes(req) {
  const placed = placeContext(req);
  return JSON.stringify({ tools: req.tools, system: placed.system, messages: placed.messages });
}

function commonPrefix(a, b) {
  const n = Math.min(a.length, b.length);
  let i = 0;
  while (i < n && a.charCodeAt(i) === b.charCodeAt(i)) i++;
  return i;
}

async function measurePrefix(placement, steps = 20) {
  const session = await makeSession(5, 10, placement);
  let previous = placedBytes(session.request());
  let shared = 0;
  let total = 0;
  for (let i = 0; i < steps; i++) {
    const tool = `skill_${i % LOADED}_tool_0`;
    const [call] = session.addAssistantMessage({
      content: '',
      toolCalls: [{ id: '', name: tool, input: { id: 'A' } }],
    }).toolCalls;
    await session.callTool(call);
    const next = placedBytes(session.request());
    shared += commonPrefix(previous, next);
    total += next.length;
    previous = next;
  }
  session.dispose();
  return { shared: shared / steps, total: total / steps, share: shared / total };
}

const fmt = (ms) => `${(ms * 1000).toFixed(1)} µs`;

// ─────────────────────── the tool-loop step, a model that reports no usage ───────────────────────

/** Tool calls per turn before the model replies with text. */
const TOOL_STEPS = 5;

/**
 * A model that reports no usage (some providers and proxies don't), so the turn estimates it. Each
 * turn it calls `TOOL_STEPS` tools, then replies. It times the framework between its own calls: from
 * answering a tool call to the next request reaching it (the answer recorded, the tool run and its
 * result recorded, the next request built, the turn's hooks run), and `JSON.stringify` of that
 * request, the floor. A turn's first request (the user's message) is not a tool-loop step.
 */
function timingModel({ appendOnly = false, reasoning = false } = {}) {
  const framework = [];
  const floor = [];
  let answered = null;
  let calls = 0;
  const model = {
    name: 'no-usage',
    ...(appendOnly ? { appendOnly: true } : {}),
    async generate(req) {
      const t0 = performance.now();
      JSON.stringify(req);
      const t1 = performance.now();
      if (answered !== null) {
        framework.push(t0 - answered);
        floor.push(t1 - t0);
      }
      calls++;
      const last = calls % (TOOL_STEPS + 1) === 0;
      const text = last ? 'Done: your order is on its way.' : '';
      const tool = `skill_${calls % LOADED}_tool_${calls % TOOLS_PER_SKILL}`;
      const response = { text, toolCalls: last ? [] : [{ id: '', name: tool, input: { id: 'A', query: 'x' } }] };
      if (reasoning) {
        const thought = { type: 'reasoning', provider: 'bench', model: 'no-usage', text: 'Look the order up first.' };
        thought.signature = 'c2lnbmF0dXJl'.repeat(16);
        response.content = [thought, ...(text ? [{ type: 'text', text }] : [])];
      }
      answered = last ? null : performance.now();
      return response;
    },
  };
  return { model, framework, floor };
}

/** Tool-loop steps through `send`, on a transcript of `size` messages: medians of the last `turns` turns. */
async function measureLoop(size, { rerender = false, appendOnly = false, reasoning = false } = {}, turns = 60) {
  const warm = 10;
  const timing = timingModel({ appendOnly, reasoning });
  const snapshot = {
    version: 1,
    transcript: syntheticTranscript(size),
    loadedSkills: Array.from({ length: LOADED }, (_, i) => `skill_${i}`),
    stores: {},
  };
  const session = restoreSession(makeAgent(5, rerender), snapshot, { model: timing.model });
  for (let i = 0; i < warm + turns; i++) {
    if (i === warm) {
      timing.framework.length = 0;
      timing.floor.length = 0;
    }
    await session.send(`check order A-${i}`);
  }
  session.dispose();
  const framework = median(timing.framework);
  const floor = median(timing.floor);
  return { framework, floor, ratio: framework / floor };
}

const loopRows = [
  ['plain', {}],
  ['re-renders its skill', { rerender: true }],
  ['append-only, reasoning', { appendOnly: true, reasoning: true }],
];
console.log(
  `skilltree bench — one tool-loop step through send() (model answered → next request reaches the model), a model\n` +
    `that reports no usage, 5 skills (3 loaded, ${TOOLS_PER_SKILL} tools each), NODE_ENV=${process.env.NODE_ENV ?? 'development'}\n`,
);
console.log('step                     transcript   framework   JSON.stringify   ratio');
let worstLoop = 0;
for (const [label, options] of loopRows) {
  if (process.env.BENCH_ROWS && !label.startsWith(process.env.BENCH_ROWS)) continue;
  for (const size of process.env.BENCH_SIZES?.split(',').map(Number) ?? [10, 1_000, 100_000]) {
    const r = await measureLoop(size, options, Number(process.env.BENCH_TURNS ?? 60));
    worstLoop = Math.max(worstLoop, r.ratio);
    console.log(
      `${label.padEnd(23)}  ${String(size).padStart(10)}   ${fmt(r.framework).padStart(9)}   ${fmt(r.floor).padStart(14)}   ${r.ratio.toFixed(2).padStart(5)}`,
    );
  }
}
console.log(`worst ratio to JSON.stringify: ${worstLoop.toFixed(2)} (target ≤ 2)\n`);
if (process.argv.includes('--loop-only')) process.exit(0);

console.log('session.request() after session.callTool (tool result → next request ready), per catalog size\n');
console.log('catalog  transcript   framework   JSON.stringify   ratio');
const results = {};
for (const skills of [5, 500]) {
  for (const size of [10, 1_000, 100_000]) {
    const r = await measureStep(skills, size);
    results[`${skills}/${size}`] = r;
    console.log(
      `${String(skills).padStart(7)}  ${String(size).padStart(10)}   ${fmt(r.framework).padStart(9)}   ${fmt(r.floor).padStart(14)}   ${r.ratio.toFixed(2).padStart(5)}`,
    );
  }
}
const growth = results['5/100000'].framework / results['5/1000'].framework;
const growthCatalog = results['500/100000'].framework / results['500/1000'].framework;
console.log(
  `\ngrowth 1,000 → 100,000 messages: ×${growth.toFixed(2)} (5 skills), ×${growthCatalog.toFixed(2)} (500 skills)`,
);
const worst = Math.max(...Object.values(results).map((r) => r.ratio));
console.log(`worst ratio to JSON.stringify: ${worst.toFixed(2)} (target ≤ 3)`);

const perSession = await measureMemory();
console.log(
  `\nmemory per idle session (5 skills, 3 loaded, empty transcript, 1,000 sessions): ${(perSession / 1024).toFixed(1)} KiB`,
);

console.log(
  '\nprompt-cache friendliness over a 20-step tool loop (bytes of each request that prefix the previous one):',
);
for (const placement of ['end', 'system']) {
  const p = await measurePrefix(placement);
  console.log(
    `  contextPlacement '${placement}':${' '.repeat(7 - placement.length)} ${Math.round(p.shared)} of ${Math.round(p.total)} bytes (${(p.share * 100).toFixed(1)}%)`,
  );
}

// ───────────────────────────── telemetry ─────────────────────────────

/** A whole turn as `send` runs it: model → tool → model, with the scripted model's estimated usage. */
async function measureTurn(options, rounds = 200) {
  const steps = [];
  for (let i = 0; i < rounds + 20; i++) {
    steps.push({ toolCalls: [{ name: `skill_${i % LOADED}_tool_0`, input: { id: 'A' } }] }, { text: 'Done.' });
  }
  const session = restoreSession(
    makeAgent(5),
    { version: 1, transcript: [], loadedSkills: ['skill_0', 'skill_1', 'skill_2'], stores: {} },
    { model: scriptedModel(steps), ...options },
  );
  const times = [];
  for (let i = 0; i < rounds + 20; i++) {
    const t0 = performance.now();
    await session.send(`check order A-${i}`);
    if (i >= 20) times.push(performance.now() - t0);
  }
  session.dispose();
  return median(times);
}

/** Spans are recorded and batched for export, and the export drops them: the SDK's own cost. */
function sdkProvider() {
  const exporter = {
    export: (_spans, done) => done({ code: 0 }),
    shutdown: async () => {},
    forceFlush: async () => {},
  };
  return new BasicTracerProvider({ spanProcessors: [new BatchSpanProcessor(exporter, { maxQueueSize: 100_000 })] });
}

console.log(
  '\ntelemetry: framework time per step (5 skills, 1,000 messages) and per turn (model → tool → model),\n' +
    'modes interleaved over 5 rounds, median of the rounds',
);
console.log('mode                          step        turn');
const modes = [
  ['off (telemetry: false)', { telemetry: false }, false],
  ['on, no SDK registered', {}, false],
  ['on, SDK (BatchSpanProcessor)', {}, true],
  ['on, SDK, recordContent', { telemetry: { recordContent: true } }, true],
];
// Warm the lazy import of @opentelemetry/api before measuring.
createSession(makeAgent(1), {}).dispose();
await new Promise((resolve) => setTimeout(resolve, 50));
const runs = Object.fromEntries(modes.map(([label]) => [label, { step: [], turn: [] }]));
for (let round = 0; round < 5; round++) {
  for (const [label, options, withSdk] of modes) {
    const provider = withSdk ? sdkProvider() : null;
    if (provider) trace.setGlobalTracerProvider(provider);
    runs[label].step.push((await measureStep(5, 1_000, 100, options)).framework);
    runs[label].turn.push(await measureTurn(options, 60));
    if (provider) {
      await provider.shutdown();
      trace.disable();
    }
  }
}
const telemetry = {};
for (const [label] of modes) {
  telemetry[label] = { step: median(runs[label].step), turn: median(runs[label].turn) };
  console.log(
    `${label.padEnd(28)}  ${fmt(telemetry[label].step).padStart(9)}  ${fmt(telemetry[label].turn).padStart(10)}`,
  );
}
const off = telemetry['off (telemetry: false)'];
const bare = telemetry['on, no SDK registered'];
console.log(
  `no SDK vs off: step ×${(bare.step / off.step).toFixed(2)}, turn ×${(bare.turn / off.turn).toFixed(2)} (target: within the noise). ` +
    'Without @opentelemetry/api installed, a session takes the "off" path.',
);
