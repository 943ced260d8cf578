/**
 * A stop reaches a turn running in another process: a child process runs a turn whose tool holds
 * until it is stopped; this process, sharing nothing with it but the store, stops it with
 * `sessions.stop(id)`. The child's turn ends as stopped, its call in flight is committed as
 * interrupted, and the chat goes on. On real PostgreSQL and Redis servers, and on one SQLite file.
 * Every wait is on what the child prints or on its exit, never on a clock.
 */
import { fileURLToPath } from 'node:url';
import { createSessions, textOf } from '@skilltree/core';
import { checkTranscript } from '@skilltree/store/testing';
import { describe, expect, test } from 'vitest';
import { bumpModel, counterAgent } from '../src/fixture.js';
import { backendsFor, startWorker } from './workers.js';

const WORKER = fileURLToPath(new URL('./fixtures/stop-worker.ts', import.meta.url));

/** Resolves once the worker printed `line` (or exited). */
async function printed(worker: ReturnType<typeof startWorker>, line: string): Promise<void> {
  let exited = false;
  void worker.exit.then(() => (exited = true));
  while (!exited && !worker.lines.includes(line)) await new Promise((resolve) => setTimeout(resolve, 10));
}

describe.each(backendsFor('stop'))('a stop from another process on one %s store', (backend, setup) => {
  test('stops the turn where it runs: the call in flight is committed as interrupted, and the chat goes on', async () => {
    const { url, prefix, open } = setup();
    const store = open();
    // Create the schema first, so the child starts its turn at once.
    await store.record('warm-up');
    const id = `${prefix}chat`;
    const child = startWorker(WORKER, [backend, url, prefix, id]);
    await child.ready;
    await printed(child, 'in-tool');
    expect(child.lines).toContain('in-tool');

    const here = createSessions(counterAgent(), { store, model: bumpModel() });
    expect(await here.stop(id)).toBe(true);
    expect(await child.exit).toBe(0);
    expect(child.lines.at(-1)).toMatch(/^ended AbortError: Interrupted: the turn of chat ".*" was stopped/);

    const messages = await store.messages(id, 0, 100);
    expect(checkTranscript(messages)).toEqual([]);
    const result = messages.find((m) => m.role === 'tool' && m.name === 'bump');
    expect(result).toMatchObject({ isError: true, errorKind: 'interrupted' });
    // The lease was given back: nothing runs, and the next message is answered here at once.
    expect((await here.get(id))?.running).toBeNull();
    expect(await here.stop(id)).toBe(false);
    expect((await here.send(id, 'say still here')).text).toBe('ok: say still here');
    expect(textOf((await store.messages(id, 0, 100)).at(-1)!)).toBe('ok: say still here');
    await here.close();
  }, 120_000);
});
