/**
 * Crash load test: four `skilltree serve` processes on one PostgreSQL, many chats, and one process
 * SIGKILLed in the middle. Reports what a user would see: turns lost (a message that never got its
 * answer), tool runs that happened twice (the agent's tool writes one line per run to a file, read
 * here), and the p50/p99 turn latency beside the run's other figures. Loopback only, a fast fake
 * model (bench/crash-agent.tsx), bounded in size.
 *
 *   bash .ci/with-services node packages/server/bench/load-crash.mjs            (after pnpm build)
 *   bash .ci/with-services node packages/server/bench/load-crash.mjs --engine none
 *   bash .ci/with-services node packages/server/bench/load-crash.mjs --engine dbos
 *   bash .ci/with-services <node 22+> packages/server/bench/load-crash.mjs --engine restate
 *
 * Needs SKILLTREE_TEST_POSTGRES_URL (`.ci/with-services` starts a throwaway server) and
 * @skilltree/store; without them it says so and exits 0 (it is part of `pnpm bench`).
 * Knobs: BENCH_CHATS (default 1000), BENCH_TURNS per chat (default 3), BENCH_PROCESSES (default 4),
 * BENCH_CONCURRENCY (chats in flight at once, default 200), BENCH_LEASE_TTL (ms, default 6000:
 * how long a dead process's chats stay taken), BENCH_SUBAGENT=1 (the tool runs in a subagent run: on
 * an engine, a child workflow of its turn).
 *
 * Engine-less (the default, `--engine none`): a turn in flight on the killed process is lost (its
 * call in flight is recorded as interrupted, never run again), and the chat's next turn waits for
 * the dead process's lease to expire. `--engine dbos` runs every process's turns on DBOS Transact
 * (SPEC §21, `@skilltree/durable/dbos`, through the agent module's `engine` export): a turn in flight
 * on the killed process is finished by another one, and the client follows it there (see
 * `engineSetup` and `follow` below, and docs/serving.md, "Crash load test"). `--engine restate` does
 * the same on Restate (`@skilltree/durable/restate`): the test starts a throwaway Restate server (the
 * `@restatedev/restate-server` binary, bench/restate-server.mjs) and each process serves its turns
 * to it; it needs Node 22 or later and says so on an older one. BENCH_FOLLOW_TIMEOUT
 * (ms, default 120000) bounds how long the client follows one broken turn.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { bounded, cli, here, percentile, postTurn, startServeProcess, storeAvailable } from './serve-process.mjs';

const agent = join(here, 'crash-agent.tsx');

const CHATS = bounded('BENCH_CHATS', 1_000, 5_000);
const TURNS = bounded('BENCH_TURNS', 3, 20);
const PROCESSES = bounded('BENCH_PROCESSES', 4, 8);
const CONCURRENCY = bounded('BENCH_CONCURRENCY', 200, 2_000);
const LEASE_TTL = bounded('BENCH_LEASE_TTL', 6_000, 60_000);
/** With an engine: how long the client follows a broken turn before it counts it lost (ms). */
const FOLLOW_TIMEOUT = bounded('BENCH_FOLLOW_TIMEOUT', 120_000, 600_000);
const engineFlag = process.argv.indexOf('--engine');
const ENGINE = engineFlag === -1 ? 'none' : (process.argv[engineFlag + 1] ?? 'none');

/**
 * What the processes and the client do differently with a durable engine. `--engine dbos` serves
 * bench/crash-engine-agent.tsx, whose `engine` export runs each process's turns on DBOS Transact
 * (@skilltree/durable/dbos) in the same PostgreSQL, and sets `resume`: the client then follows a turn
 * whose stream broke (its process was killed) by reading the chat on a live process until the
 * answer is there, as a user's page would on reload, instead of counting the turn lost.
 */
function engineSetup(name) {
  if (name === 'none') return { label: 'none', agent, serveArgs: [], env: {}, resume: false };
  if (name === 'dbos' || name === 'restate') {
    return {
      label: `${name} (@skilltree/durable/${name})`,
      agent: join(here, 'crash-engine-agent.tsx'),
      serveArgs: [],
      env: { BENCH_ENGINE: name },
      resume: true,
      // Restate runs a server of its own beside the processes (see startRestateServer).
      restate: name === 'restate',
    };
  }
  throw new Error(
    `--engine ${name}: the engines of this test are none, dbos and restate (see engineSetup in ${fileURLToPath(import.meta.url)}).`,
  );
}

/** One `skilltree serve` process (one worker): resolves once it prints its URL. */
async function startServe(index, store, engine, env) {
  const args = [cli, 'serve', engine.agent, '--port', '0', '--model', 'demo', '--store', store];
  args.push('--workers', '1', '--turns-per-minute', '0', '--no-page', ...engine.serveArgs);
  const process_ = await startServeProcess(
    args,
    { ...process.env, ...engine.env, ...env },
    `skilltree serve #${index}`,
  );
  const server = {
    ...process_,
    index,
    alive: true,
    kill() {
      server.alive = false;
      return process_.kill();
    },
  };
  return server;
}

/** One turn: POST, read the UI message stream to the end. */
async function turn(url, user, chatId, text) {
  const started = performance.now();
  try {
    const response = await postTurn(url, user, chatId, text);
    if (!response.ok) return { ok: false, error: `${response.status} ${await response.text()}` };
    const body = await response.text();
    let reply = '';
    let finished = false;
    let error = null;
    for (const event of body.split('\n\n')) {
      const data = event.replace(/^data: /, '');
      if (!data || data === '[DONE]' || data.startsWith(':')) continue;
      const chunk = JSON.parse(data);
      if (chunk.type === 'text-delta') reply += chunk.delta;
      if (chunk.type === 'finish') finished = true;
      if (chunk.type === 'error') error = chunk.errorText;
    }
    if (error || !finished) return { ok: false, error: error ?? 'the stream ended without a finish chunk' };
    if (reply !== `echo: ${text}`) return { ok: false, error: `unexpected reply ${JSON.stringify(reply)}` };
    return { ok: true, ms: performance.now() - started };
  } catch (error) {
    // The process died under the request (connection reset, socket closed).
    return { ok: false, error: String(error?.cause?.code ?? error) };
  }
}

/** Which sent messages the chat answered: a user message followed by its `echo:` reply. */
async function answered(url, user, chatId) {
  const response = await fetch(`${url}/api/chat/${chatId}`, { headers: { 'x-bench-user': user } });
  if (response.status === 404) return { users: [], answers: new Set() };
  if (!response.ok) throw new Error(`GET /api/chat/${chatId}: ${response.status} ${await response.text()}`);
  const messages = await response.json();
  const users = [];
  const answers = new Set();
  for (let i = 0; i < messages.length; i++) {
    if (messages[i].role !== 'user') continue;
    const text = messages[i].parts.find((p) => p.type === 'text')?.text;
    users.push(text);
    const next = messages[i + 1];
    const reply = next?.role === 'assistant' ? next.parts.filter((p) => p.type === 'text').at(-1)?.text : undefined;
    if (reply === `echo: ${text}`) answers.add(text);
  }
  return { users, answers };
}

/**
 * With an engine: a turn whose stream broke is followed on the live processes until its answer is
 * in the chat (another process recovered the turn). The chat shows the user's message only once the
 * recovered turn commits it, so a message not seen yet may still come: only a message the chat has
 * not shown after BENCH_FOLLOW_TIMEOUT is sent again (once), as a client would after such an error;
 * a tool run twice for a resent message is counted apart (the client sent it twice).
 */
async function follow(servers, user, chatId, text, started) {
  const deadline = performance.now() + FOLLOW_TIMEOUT;
  let received = false;
  while (performance.now() < deadline) {
    const live = servers.filter((s) => s.alive);
    try {
      const chat = await answered(live[Math.floor(Math.random() * live.length)].url, user, chatId);
      if (chat.answers.has(text)) return { ok: true, ms: performance.now() - started, followed: true };
      received = chat.users.includes(text);
    } catch {
      // A process busy or going away: look again.
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  if (received) return { ok: false, error: `followed for ${FOLLOW_TIMEOUT} ms: received, never answered` };
  const again = await turn(servers.filter((s) => s.alive)[0].url, user, chatId, text);
  return again.ok
    ? { ok: true, ms: performance.now() - started, resent: true }
    : { ...again, error: `never received in ${FOLLOW_TIMEOUT} ms; resent, then: ${again.error}` };
}

/**
 * The Restate SDK needs Node 22 or later (`Promise.withResolvers`), and the serve processes run on
 * this process's Node: on an older one the test says how to run it and fails.
 */
function needsNode22(engine) {
  if (!engine.restate) return;
  const major = Number(process.versions.node.split('.')[0]);
  if (major >= 22) return;
  console.error(
    `crash load test: --engine restate needs Node 22 or later (the Restate SDK, @restatedev/restate-sdk 1.17, uses ` +
      `Promise.withResolvers), and this is Node ${process.versions.node}. Run it with a Node 22+ binary, e.g. ` +
      '`bash .ci/with-services /path/to/node22/bin/node packages/server/bench/load-crash.mjs --engine restate`, or use --engine dbos.',
  );
  process.exit(1);
}

/** How many turn invocations the Restate server has of services whose name starts with `prefix`. */
async function restateTurnsOf(adminUrl, prefix) {
  const response = await fetch(new URL('/query', adminUrl), {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json' },
    body: JSON.stringify({
      query: `SELECT COUNT(*) AS n FROM sys_invocation WHERE target_service_name LIKE '${prefix.replaceAll("'", "''")}%'`,
    }),
  });
  if (!response.ok) throw new Error(`Restate admin /query: ${response.status} ${await response.text()}`);
  return Number((await response.json()).rows[0]?.n ?? 0);
}

/** The turn invocations the Restate server has not completed, counted by status. */
async function restatePending(adminUrl) {
  const response = await fetch(new URL('/query', adminUrl), {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json' },
    body: JSON.stringify({
      query:
        "SELECT status, COUNT(*) AS n FROM sys_invocation WHERE target_service_name LIKE 'skilltree-turn-%' AND status <> 'completed' GROUP BY status",
    }),
  });
  if (!response.ok) throw new Error(`Restate admin /query: ${response.status} ${await response.text()}`);
  return (await response.json()).rows;
}

async function main() {
  const engine = engineSetup(ENGINE);
  needsNode22(engine);
  const postgres = process.env.SKILLTREE_TEST_POSTGRES_URL;
  if (!postgres || !storeAvailable('postgres')) {
    console.log(
      `crash load test skipped: ${postgres ? '@skilltree/store/postgres is not installed' : 'SKILLTREE_TEST_POSTGRES_URL is not set'} ` +
        '(run: bash .ci/with-services node packages/server/bench/load-crash.mjs).',
    );
    return;
  }
  const scratch = mkdtempSync(join(tmpdir(), 'skilltree-crash-'));
  const toolLog = join(scratch, 'tool-runs.jsonl');
  writeFileSync(toolLog, '');
  const run = Date.now().toString(36);
  const total = CHATS * TURNS;
  console.log(
    `crash load test: ${PROCESSES} skilltree serve processes on one PostgreSQL, ${CHATS} chats × ${TURNS} turns ` +
      `(${CONCURRENCY} chats at once), one process SIGKILLed after half the turns; engine: ${engine.label}; ` +
      `lease ${LEASE_TTL} ms; fast fake model, loopback (${cpus().length} cores)`,
  );
  const env = { BENCH_TOOL_LOG: toolLog, BENCH_LEASE_TTL: String(LEASE_TTL) };
  const servers = [];
  /** With --engine restate: the Restate server every process registers its endpoint with. */
  let restate = null;
  try {
    if (engine.restate) {
      const { startRestateServer } = await import('./restate-server.mjs');
      restate = await startRestateServer();
      env.BENCH_RESTATE_INGRESS = restate.ingressUrl;
      env.BENCH_RESTATE_ADMIN = restate.adminUrl;
    }
    for (let i = 0; i < PROCESSES; i++) servers.push(await startServe(i, postgres, engine, env));
    // Warm each process's code paths: not counted.
    await Promise.all(servers.map((s) => turn(s.url, 'warmup', `warmup-${run}-${s.index}`, 'hello')));
    const latencies = [];
    const failures = [];
    /** With an engine: streams that broke (followed), of them answered by recovery, and resent. */
    const broken = [];
    let followed = 0;
    let resent = 0;
    const resentKeys = new Set();
    const sent = Array.from({ length: CHATS }, () => []);
    /** Turns sent to each process, by its index. */
    const sentTo = new Map();
    let done = 0;
    let killedAt = null;
    const victim = servers[0];
    const started = performance.now();
    let next = 0;
    const worker = async () => {
      for (let i = next++; i < CHATS; i = next++) {
        const user = `user-${i}`;
        const chatId = `crash-${run}-${i}`;
        for (let k = 0; k < TURNS; k++) {
          // Each turn on another process, round robin over the live ones: chats move between processes.
          const live = servers.filter((s) => s.alive);
          const server = live[(i + k) % live.length];
          const text = `message ${k}`;
          sent[i].push(text);
          const sentAt = performance.now();
          sentTo.set(server.index, (sentTo.get(server.index) ?? 0) + 1);
          let result = await turn(server.url, user, chatId, text);
          if (!result.ok && engine.resume) {
            broken.push({ chat: i, text, server: server.index, error: result.error });
            result = await follow(servers, user, chatId, text, sentAt);
            if (result.followed) followed++;
            if (result.resent) {
              resent++;
              resentKeys.add(`${chatId}\u0000${text}`);
            }
          }
          if (result.ok) latencies.push(result.ms);
          else failures.push({ chat: i, text, server: server.index, error: result.error });
          done++;
          if (killedAt === null && done >= total / 2) {
            killedAt = { done, ms: performance.now() - started };
            void victim.kill();
          }
        }
      }
    };
    await Promise.all(Array.from({ length: Math.min(CONCURRENCY, CHATS) }, worker));
    const elapsed = (performance.now() - started) / 1000;
    latencies.sort((a, b) => a - b);

    // What each chat holds, read from a live process.
    const reader = servers.find((s) => s.alive);
    let lost = 0;
    let unanswered = 0;
    for (let i = 0; i < CHATS; i += 50) {
      const results = await Promise.all(
        sent.slice(i, i + 50).map((_, j) => answered(reader.url, `user-${i + j}`, `crash-${run}-${i + j}`)),
      );
      results.forEach((chat, j) => {
        for (const text of sent[i + j]) if (!chat.answers.has(text)) lost++;
        unanswered += chat.users.filter((text) => !chat.answers.has(text)).length;
      });
    }
    // Tool runs, from the side effect itself: a (chat, message) that ran more than once ran twice.
    const runs = new Map();
    /** With an engine: the idempotency keys each message's tool ran under (one key: one side effect). */
    const keys = new Map();
    for (const line of readFileSync(toolLog, 'utf8').split('\n')) {
      if (!line) continue;
      const [chat, text, , idempotencyKey] = JSON.parse(line);
      if (!String(chat).startsWith(`crash-${run}-`)) continue;
      const key = `${chat}\u0000${text}`;
      runs.set(key, (runs.get(key) ?? 0) + 1);
      if (idempotencyKey) keys.set(key, (keys.get(key) ?? new Set()).add(idempotencyKey));
    }
    let sideEffectsTwice = 0;
    for (const [key, set] of keys) if (set.size > 1 && !resentKeys.has(key)) sideEffectsTwice += set.size - 1;
    let duplicated = 0;
    let duplicatedResent = 0;
    for (const [key, n] of runs) {
      if (n <= 1) continue;
      if (resentKeys.has(key)) duplicatedResent += n - 1;
      else duplicated += n - 1;
    }
    const onVictim = failures.filter((f) => f.server === victim.index).length;

    const fmt = (n) => (Number.isFinite(n) ? n.toFixed(1) : '-');
    console.log('');
    console.log('| metric | value |');
    console.log('| --- | --- |');
    console.log(`| processes, store, engine | ${PROCESSES} × serve, postgres, ${engine.label} |`);
    if (process.env.BENCH_SUBAGENT === '1') console.log('| the tool runs in | a subagent run (BENCH_SUBAGENT=1) |');
    console.log(`| chats × turns | ${CHATS} × ${TURNS} = ${total} |`);
    console.log(`| duration | ${elapsed.toFixed(1)} s |`);
    console.log(
      `| process SIGKILLed | #${victim.index} after ${killedAt?.done} turns (${fmt((killedAt?.ms ?? 0) / 1000)} s) |`,
    );
    console.log(`| turns answered | ${latencies.length} |`);
    console.log(
      `| turns failed at the client (in flight on the killed process / elsewhere) | ${onVictim} / ${failures.length - onVictim} |`,
    );
    if (engine.resume) {
      const brokenOnVictim = broken.filter((f) => f.server === victim.index).length;
      console.log(
        `| streams broken (on the killed process / elsewhere): followed to the recovered answer / resent | ${brokenOnVictim} / ${broken.length - brokenOnVictim}: ${followed} / ${resent} |`,
      );
    }
    console.log(`| turns lost (a sent message without its answer in the chat) | ${lost} |`);
    console.log(`| tool runs twice | ${duplicated} |`);
    if (engine.resume) {
      console.log(
        `| of them under the same idempotency key (a keyed side effect happens once) | ${duplicated - sideEffectsTwice} |`,
      );
      console.log(`| side effects twice (one message's tool ran under two idempotency keys) | ${sideEffectsTwice} |`);
    }
    if (resent > 0) console.log(`| tool runs twice for a message the client resent | ${duplicatedResent} |`);
    console.log(`| tool runs | ${[...runs.values()].reduce((a, b) => a + b, 0)} |`);
    console.log(
      `| turn latency p50 / p99 / max | ${fmt(percentile(latencies, 50))} / ${fmt(percentile(latencies, 99))} / ${fmt(latencies.at(-1))} ms |`,
    );
    if (restate) {
      // What the engine still holds: a turn left pending on the server would run again some day.
      const rows = await restatePending(restate.adminUrl);
      const onServer = await restateTurnsOf(restate.adminUrl, `skilltree-turn-${victim.pid}-`);
      // Its warm-up turn counts on the server too.
      const sentToVictim = (sentTo.get(victim.index) ?? 0) + 1;
      console.log(
        `| turns sent to the killed process (its warm-up included) / started by it on the Restate server | ${sentToVictim} / ${onServer} |`,
      );
      const recoveredLines = servers
        .filter((s) => s.alive)
        .flatMap((s) => s.stderr().split('\n'))
        .filter((line) => line.startsWith('skilltree-bench recovered '));
      const failedLines = recoveredLines.filter((line) => line.includes('"error"'));
      const recoveredFailed = failedLines.length;

      console.log(
        `| turns recovered by another process (of them failed) | ${recoveredLines.length} (${recoveredFailed}) |`,
      );
      console.log(
        `| invocations not completed on the Restate server at the end | ${rows.map((r) => `${r.n} ${r.status}`).join(', ') || 0} |`,
      );
      // Why a recovered turn failed (its message then waits for the client to send it again).
      for (const line of failedLines.slice(0, 5)) console.log(`\nrecovered turn failed: ${line.slice(0, 300)}`);
    }
    if (unanswered !== lost) console.log(`\nnote: ${unanswered} user messages in the chats have no answer.`);
    if (broken.length > 0) {
      const kinds = new Map();
      for (const b of broken) {
        const kind = `${b.server === victim.index ? 'killed process' : 'live process'}: ${b.error.slice(0, 120)}`;
        kinds.set(kind, (kinds.get(kind) ?? 0) + 1);
      }
      console.log(`\nbroken streams by error:\n  ${[...kinds].map(([e, n]) => `${n} × ${e}`).join('\n  ')}`);
    }
    if (failures.length > 0) {
      const kinds = new Map();
      for (const f of failures) kinds.set(f.error.slice(0, 120), (kinds.get(f.error.slice(0, 120)) ?? 0) + 1);
      console.log(`\nfailures by error:\n  ${[...kinds].map(([e, n]) => `${n} × ${e}`).join('\n  ')}`);
    }
    // Engine-less, a turn in flight on the killed process is lost, and nothing else may be: more lost
    // than failed turns, a failure on a live process, or any tool run twice fails the test.
    const allowed = engine.resume ? 0 : onVictim;
    // With an engine a tool cut by the kill before its step was recorded runs again on recovery, under
    // the same idempotency key: what must not happen twice is a keyed side effect.
    const twice = engine.resume ? sideEffectsTwice : duplicated;
    if (twice > 0 || lost > allowed || failures.length > onVictim) {
      console.error(
        `\ncrash load test FAILED: ${twice} ${engine.resume ? 'side effects' : 'tool runs'} twice, ${lost} turns lost (allowed ${allowed}), ` +
          `${failures.length - onVictim} turns failed on live processes.`,
      );
      for (const s of servers.filter((x) => x.alive)) {
        const lines = s
          .stderr()
          .split('\n')
          .filter((line) => /fail|error/i.test(line));
        if (lines.length > 0) console.error(`serve #${s.index} logged:\n  ${lines.slice(0, 5).join('\n  ')}`);
      }
      process.exitCode = 1;
    }
  } finally {
    await Promise.all(servers.map((s) => (s.alive ? s.stop() : undefined)));
    await restate?.stop();
    rmSync(scratch, { recursive: true, force: true });
  }
}

await main();
