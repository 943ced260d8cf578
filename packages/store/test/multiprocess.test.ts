/**
 * Four Node processes share one store, each sending to the same 50 sessions at random; one is
 * killed with SIGKILL mid-run. Once one more message went to each session (answering what the dead
 * process left mid-turn), every transcript is valid, every accepted send is in it exactly once,
 * each session's counter equals the `bump` calls that landed, and nothing is lost or duplicated. On real PostgreSQL and Redis servers, and on one SQLite file. The run is paced by
 * what the processes report (sends accepted), never by a clock, so a busy machine only makes it
 * slower.
 */
import { fileURLToPath } from 'node:url';
import { createSessions, type Message, type SessionStore, textOf } from '@skilltree/core';
import { checkTranscript } from '@skilltree/store/testing';
import { describe, expect, test } from 'vitest';
import { bumpModel, counterAgent } from '../src/fixture.js';
import { accepted, backendsFor, startWorker } from './workers.js';

const WORKER = fileURLToPath(new URL('./fixtures/worker.ts', import.meta.url));
const PROCESSES = 4;
/** Sends the victim has had accepted when it is killed, and each survivor has after that. */
const BEFORE_KILL = 5;
const AFTER_KILL = 10;
/** The victim's lease: its chats free up this long after it dies. The survivors' never lapses in a test. */
const VICTIM_LEASE = 2_000;
const SURVIVOR_LEASE = 600_000;

async function allMessages(store: SessionStore, id: string): Promise<Message[]> {
  const out: Message[] = [];
  for (;;) {
    const page = await store.messages(id, out.length, 1_000);
    out.push(...page);
    if (page.length < 1_000) return out;
  }
}

const backends = backendsFor('mp');

describe.each(backends)('four processes on one %s store, one killed mid-run', (backend, setup) => {
  test('every transcript is valid, every accepted send is in it exactly once, counters equal the bump calls', async () => {
    const { url, prefix, open } = setup();
    // Create the schema first, so the processes start sending at once.
    const store = open();
    await store.record('warm-up');
    const ids = Array.from({ length: 50 }, (_, i) => `${prefix}s${i}`);
    const workers = Array.from({ length: PROCESSES }, (_, p) =>
      startWorker(WORKER, [
        backend,
        url,
        prefix,
        String(p === 0 ? VICTIM_LEASE : SURVIVOR_LEASE),
        `p${p}`,
        ids.join(','),
      ]),
    );
    const started = performance.now();
    const phases: string[] = [];
    const phase = (name: string) => phases.push(`${name} ${Math.round(performance.now() - started)} ms`);
    await Promise.all(workers.map((w) => w.ready));
    phase('ready');
    // The victim dies mid-run, with turns in flight (it keeps four going), once it has done some.
    const [victim, ...survivors] = workers;
    await victim.accepted(BEFORE_KILL);
    victim.child.kill('SIGKILL');
    await victim.exit;
    phase('killed');
    // The others go on past its death (into the chats it held), then stop.
    const at = survivors.map((w) => accepted(w.lines));
    await Promise.all(survivors.map((w, i) => w.accepted(at[i] + AFTER_KILL)));
    for (const worker of survivors) worker.child.stdin!.end('stop\n');
    const codes = await Promise.all(survivors.map((w) => w.exit));
    phase('stopped');
    expect(codes, workers.map((w) => w.lines.filter((l) => l.startsWith('stderr')).join('\n')).join('')).toEqual(
      Array(PROCESSES - 1).fill(0),
    );

    const sends = new Map<string, string>();
    const errors: string[] = [];
    /** The victim's sends that failed before it died (a busy machine may starve it past its short lease). */
    const failed = new Set<string>();
    for (const [p, worker] of workers.entries()) {
      for (const line of worker.lines) {
        const [kind, id, text, rest] = line.split(' ');
        if (kind === 'ok') {
          expect(rest, line).toBe('reply');
          sends.set(text, id);
        } else if (kind === 'err' && p > 0) errors.push(`${p}: ${line}`);
        else if (kind === 'err') failed.add(text);
      }
    }
    // The survivors never failed a send (the victim's own turns may have, as it was dying).
    expect(errors).toEqual([]);
    for (const worker of survivors) expect(worker.lines.at(-1)).toBe('done');
    expect(sends.size).toBeGreaterThanOrEqual(BEFORE_KILL + (PROCESSES - 1) * AFTER_KILL);

    // Every chat goes on after the crash: one more message to each, from another process, answers
    // what the dead process left mid-turn, as a survivor does when it picks that chat (the survivors
    // pick chats at random, so they may not have picked each of the dead process's).
    const after = createSessions(counterAgent(), { store: open(), model: bumpModel() });
    for (const id of ids) {
      if (await store.record(id)) expect((await after.send(id, `say check ${id}`)).text).toBe(`ok: say check ${id}`);
    }
    await after.close();

    const found = new Map<string, string>();
    let bumps = 0;
    let interrupted = 0;
    for (const id of ids) {
      const messages = await allMessages(store, id);
      const record = await store.record(id);
      if (!record) continue;
      expect(record.length).toBe(messages.length);
      expect(checkTranscript(messages), id).toEqual([]);
      let current = '';
      for (const m of messages) {
        if (m.role === 'user') {
          const text = textOf(m);
          expect(found.has(text), `${text} appears twice`).toBe(false);
          found.set(text, id);
          current = text;
        } else if (m.role === 'assistant' && !m.toolCalls) {
          expect(textOf(m)).toBe(current.startsWith('say check') ? `ok: ${current}` : `done: ${current}`);
        }
      }
      const landed = messages.filter((m) => m.role === 'tool' && m.name === 'bump' && !m.isError).length;
      interrupted += messages.filter((m) => m.role === 'tool' && m.isError && /^Interrupted/.test(textOf(m))).length;
      bumps += landed;
      // A chat whose first turn died after its skill loaded has the counter at 0.
      expect((record.state.stores as { tally?: { count: number } }).tally?.count ?? 0, id).toBe(landed);
    }
    for (const [text, id] of sends) expect(found.get(text), `accepted send ${text}`).toBe(id);
    // Every send that made it into a transcript was accepted, except the victim's last ones.
    const unaccepted = [...found.keys()].filter((text) => !sends.has(text) && !text.startsWith('say check'));
    expect(unaccepted.every((text) => text.startsWith('p0-'))).toBe(true);
    expect(unaccepted.filter((text) => !failed.has(text)).length).toBeLessThanOrEqual(4);
    expect(bumps).toBeGreaterThanOrEqual(sends.size);
    expect(interrupted).toBeLessThanOrEqual(4 + failed.size);
    console.log(
      `${backend}: ${sends.size} accepted sends over ${ids.length} sessions, ${bumps} bumps landed, ` +
        `${unaccepted.length} sends of the killed process in flight, ${interrupted} calls answered as interrupted ` +
        `(${phases.join(', ')})`,
    );
    await store.close();
    // Four processes that compile TypeScript as they start, on a machine that may be busy: the
    // bound is CPU time, not a race (every step above waits for what the processes report).
  }, 240_000);
});
