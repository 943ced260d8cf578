/**
 * Load test: many concurrent chats against `skilltree serve --workers 2` with a fast fake model, on
 * loopback only, bounded in time. Reports turns per second and the per-turn latency with a model
 * that answers at once (the framework's overhead: HTTP, the UI message stream, loading the session,
 * committing every message), then checks every chat's transcript: no message lost or duplicated.
 *
 *   node packages/server/bench/load.mjs            (pnpm bench runs it)
 *
 * Store: Postgres when SKILLTREE_TEST_POSTGRES_URL is set and @skilltree/store is installed (run it
 * as `bash .ci/with-services pnpm bench` for a throwaway server), else SQLite with two workers when
 * @skilltree/store is installed, else the memory store with one worker.
 * Knobs: BENCH_CHATS (default 200), BENCH_SECONDS (default 30), BENCH_WORKERS (default 2).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { cpus, tmpdir } from 'node:os';
import { join } from 'node:path';
import { bounded, cli, here, percentile, postTurn, startServeProcess, storeAvailable } from './serve-process.mjs';

const agent = join(here, 'agent.tsx');

const CHATS = bounded('BENCH_CHATS', 200, 1_000);
const SECONDS = bounded('BENCH_SECONDS', 30, 120);
const WANT_WORKERS = bounded('BENCH_WORKERS', 2, 8);

/** Which store and how many workers this machine can run. */
function chooseStore(scratch) {
  const postgres = process.env.SKILLTREE_TEST_POSTGRES_URL;
  if (postgres && storeAvailable('postgres')) {
    return { spec: postgres, label: 'postgres', workers: WANT_WORKERS, note: '' };
  }
  const why = postgres
    ? '@skilltree/store/postgres is not installed'
    : 'SKILLTREE_TEST_POSTGRES_URL is not set (run: bash .ci/with-services pnpm bench)';
  if (storeAvailable('sqlite')) {
    return { spec: `sqlite:${join(scratch, 'bench.db')}`, label: 'sqlite', workers: WANT_WORKERS, note: why };
  }
  return {
    spec: 'memory',
    label: 'memory',
    workers: 1,
    note: `${why}; @skilltree/store is not installed, so one worker on the memory store`,
  };
}

/** `skilltree serve` on the chosen store: resolves once it prints its URL. */
function startServe(store) {
  const args = [cli, 'serve', agent, '--port', '0', '--model', 'demo', '--store', store.spec];
  args.push('--workers', String(store.workers), '--turns-per-minute', '0', '--no-page');
  return startServeProcess(args, { ...process.env, NODE_ENV: 'production' }, 'skilltree serve');
}

/** One turn: POST, read the UI message stream to the end. Resolves with timings and what arrived. */
async function turn(url, user, chatId, text) {
  const started = performance.now();
  const response = await postTurn(url, user, chatId, text);
  if (!response.ok) {
    return { ok: false, error: `${response.status} ${await response.text()}`, ms: performance.now() - started };
  }
  const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
  let buffer = '';
  let first = 0;
  let reply = '';
  let finished = false;
  let error = null;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    if (!first) first = performance.now() - started;
    buffer += value;
    let end = buffer.indexOf('\n\n');
    while (end !== -1) {
      const data = buffer.slice(0, end).replace(/^data: /, '');
      buffer = buffer.slice(end + 2);
      end = buffer.indexOf('\n\n');
      // SSE comments (`: stream-open`, `: keep-alive`) carry no chunk.
      if (data === '[DONE]' || data.startsWith(':')) continue;
      const chunk = JSON.parse(data);
      if (chunk.type === 'text-delta') reply += chunk.delta;
      if (chunk.type === 'finish') finished = true;
      if (chunk.type === 'error') error = chunk.errorText;
    }
  }
  const ms = performance.now() - started;
  if (error || !finished) return { ok: false, error: error ?? 'no finish chunk', ms };
  if (reply !== `echo: ${text}`) return { ok: false, error: `unexpected reply ${JSON.stringify(reply)}`, ms };
  return { ok: true, ms, firstByteMs: first };
}

/** Checks that the chat holds exactly the messages sent, in order, each answered once. */
async function verify(url, user, chatId, sent) {
  const response = await fetch(`${url}/api/chat/${chatId}`, { headers: { 'x-bench-user': user } });
  if (sent.length === 0) return { lost: 0, duplicated: 0, wrong: response.status === 404 ? 0 : 1 };
  if (!response.ok) return { lost: sent.length, duplicated: 0, wrong: 1 };
  const messages = await response.json();
  const users = messages.filter((m) => m.role === 'user').map((m) => m.parts.find((p) => p.type === 'text')?.text);
  const replies = messages
    .filter((m) => m.role === 'assistant')
    .map((m) => m.parts.filter((p) => p.type === 'text').at(-1)?.text);
  const counts = new Map();
  for (const text of users) counts.set(text, (counts.get(text) ?? 0) + 1);
  let lost = 0;
  let duplicated = 0;
  for (const text of sent) {
    const n = counts.get(text) ?? 0;
    if (n === 0) lost++;
    if (n > 1) duplicated += n - 1;
  }
  const inOrder = users.length === sent.length && users.every((text, i) => text === sent[i]);
  const answered = replies.length === users.length && replies.every((r, i) => r === `echo: ${users[i]}`);
  return { lost, duplicated, wrong: inOrder && answered ? 0 : 1 };
}

async function main() {
  const scratch = mkdtempSync(join(tmpdir(), 'skilltree-bench-'));
  const store = chooseStore(scratch);
  const run = Date.now().toString(36);
  console.log(
    `load test: ${CHATS} concurrent chats for ${SECONDS} s against skilltree serve --workers ${store.workers} ` +
      `on ${store.label}, fast fake model, loopback (${cpus().length} cores)`,
  );
  if (store.note) console.log(`  note: ${store.note}`);
  const server = await startServe(store);
  const latencies = [];
  const firstBytes = [];
  const errors = [];
  const sent = Array.from({ length: CHATS }, () => []);
  try {
    // Warm up: one turn per worker's code path, not counted.
    await turn(server.url, 'warmup', `warmup-${run}`, 'hello');
    const deadline = performance.now() + SECONDS * 1000;
    const started = performance.now();
    await Promise.all(
      Array.from({ length: CHATS }, async (_, i) => {
        const user = `user-${i}`;
        const chatId = `bench-${run}-${i}`;
        for (let k = 0; performance.now() < deadline; k++) {
          const text = `message ${k}`;
          const result = await turn(server.url, user, chatId, text).catch((error) => ({
            ok: false,
            error: String(error),
            ms: 0,
          }));
          if (result.ok || !/^4\d\d /.test(result.error)) sent[i].push(text);
          if (result.ok) {
            latencies.push(result.ms);
            firstBytes.push(result.firstByteMs);
          } else {
            errors.push(result.error);
            // A failed turn may or may not have been recorded: stop this chat so the check stays exact.
            break;
          }
        }
      }),
    );
    const elapsed = (performance.now() - started) / 1000;
    latencies.sort((a, b) => a - b);
    firstBytes.sort((a, b) => a - b);

    let lost = 0;
    let duplicated = 0;
    let wrong = 0;
    for (let i = 0; i < CHATS; i += 20) {
      const results = await Promise.all(
        sent.slice(i, i + 20).map((texts, j) => verify(server.url, `user-${i + j}`, `bench-${run}-${i + j}`, texts)),
      );
      for (const r of results) {
        lost += r.lost;
        duplicated += r.duplicated;
        wrong += r.wrong;
      }
    }
    const failedChats = errors.length;
    // A chat that stopped on an error may end with its last message unanswered: only count the rest.
    const checked = sent.reduce((n, texts) => n + texts.length, 0);
    const fmt = (n) => (Number.isFinite(n) ? n.toFixed(1) : '-');
    console.log('');
    console.log('| metric | value |');
    console.log('| --- | --- |');
    console.log(`| store, workers | ${store.label}, ${store.workers} |`);
    console.log(`| concurrent chats | ${CHATS} |`);
    console.log(`| duration | ${elapsed.toFixed(1)} s |`);
    console.log(`| turns completed | ${latencies.length} |`);
    console.log(`| turns/s | ${fmt(latencies.length / elapsed)} |`);
    console.log(
      `| turn latency p50 / p99 (framework overhead) | ${fmt(percentile(latencies, 50))} / ${fmt(percentile(latencies, 99))} ms |`,
    );
    console.log(
      `| first byte p50 / p99 | ${fmt(percentile(firstBytes, 50))} / ${fmt(percentile(firstBytes, 99))} ms |`,
    );
    console.log(`| failed turns | ${failedChats} |`);
    console.log(`| messages checked | ${checked} |`);
    console.log(`| lost / duplicated / chats out of order | ${lost} / ${duplicated} / ${wrong} |`);
    if (errors.length > 0) console.log(`\nfirst errors:\n  ${[...new Set(errors)].slice(0, 5).join('\n  ')}`);
    const serverLog = server
      .stderr()
      .split('\n')
      .filter((line) => line.includes('failed'));
    if (serverLog.length > 0) console.log(`\nwhat the server logged:\n  ${serverLog.slice(0, 5).join('\n  ')}`);
    if (lost > 0 || duplicated > 0 || wrong > 0 || errors.length > 0) {
      console.error('\nload test FAILED: every turn must finish and every chat must hold exactly what was sent.');
      process.exitCode = 1;
    }
  } finally {
    await server.stop();
    rmSync(scratch, { recursive: true, force: true });
  }
}

await main();
