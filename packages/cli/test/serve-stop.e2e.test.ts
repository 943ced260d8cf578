/**
 * Stopping `skilltree serve` loses nothing: on SIGTERM (or Ctrl+C) each serving process stops
 * accepting connections, aborts its running turns and waits for their commits and lease releases,
 * closes the store, and exits; an idle one exits at once. When the primary of `--workers` dies
 * (SIGKILL, a crash), its workers drain the same way before they exit. Against real SQLite,
 * PostgreSQL and Redis. Every wait is on an event (output, exit, a stream's end), never on a clock.
 */
import { Agent as HttpAgent, request as httpRequest } from 'node:http';
import { createSessions, textOf } from '@skilltree/core';
import { LOCAL_USER } from '@skilltree/server';
import { openStore } from '@skilltree/store';
import { transcriptIsValid } from '@skilltree/test-kit';
import { createElement } from 'react';
import { describe, expect, it } from 'vitest';
import HoldAgent, { HOLD_STARTED, holdModel } from './fixtures/serve-hold-agent.js';
import {
  chatId,
  expectHelloEchoed,
  holdServeArgs,
  postChat as post,
  type ServeProcess,
  startHeldTurn,
  startServe,
  stopServesAfterEach,
  testStores,
} from './serve-helpers.js';

let serve: ServeProcess | undefined;
stopServesAfterEach();

const stores = testStores('skilltree-serve-stop-');

/** The stream of a turn that was stopped mid-call ends with the call's error and the turn's end. */
function expectStoppedStream(sse: string): void {
  expect(sse).toContain('"type":"tool-output-error","toolCallId":"h1"');
  expect(sse).toContain('"type":"error","errorText":"Interrupted: the sessions were closed');
}

/**
 * Reads the chats back through another process's sessions on the same store (chats are kept by
 * owner: "local"): each holds its interrupted call, and its lease is free. With `onBusy: 'reject'`
 * a lease left behind fails the next turn at once, so this proves the next message waits for no
 * lease at all, without measuring any time.
 */
async function expectInterruptedAndFree(spec: string, ids: string[]): Promise<void> {
  const sessions = createSessions(createElement(HoldAgent), {
    store: await openStore(spec),
    model: holdModel(),
    onBusy: 'reject',
  });
  try {
    for (const id of ids) {
      const messages = await sessions.messages(id, { owner: LOCAL_USER, limit: 100 });
      expect(transcriptIsValid(messages)).toBe(true);
      expect(messages.map((m) => m.role)).toEqual(['user', 'assistant', 'tool', 'assistant', 'tool']);
      expect(messages.at(-1)).toMatchObject({
        role: 'tool',
        toolCallId: 'h1',
        name: 'hold',
        isError: true,
        errorKind: 'interrupted',
      });
      // Stopped, not lost: the model reads that the call was interrupted.
      expect(textOf(messages.at(-1)!)).toMatch(/^Tool "hold" failed: Interrupted/);
      expect((await sessions.get(id, { owner: LOCAL_USER }))?.transcriptLength).toBe(5);
      expect((await sessions.send(id, 'still there?', { owner: LOCAL_USER })).text).toBe('echo: still there?');
    }
  } finally {
    await sessions.close();
  }
}

/** Starts `serve` again on `args` and sends `hello` to each chat: each is answered. */
async function expectAnsweredAfterRestart(args: string[], ids: string[]): Promise<void> {
  serve = await startServe(args);
  for (const id of ids) await expectHelloEchoed(serve.url, id);
}

const cases = [
  { store: 'sqlite', workers: 1 },
  { store: 'sqlite', workers: 2 },
  { store: 'postgres', workers: 2 },
  { store: 'redis', workers: 2 },
] as const;

describe.each(cases)('SIGTERM mid-turn on $store with $workers worker(s)', ({ store, workers }) => {
  it('commits the call in flight as interrupted, leaves no lease, and the next message is answered at once', async () => {
    const spec = stores[store]();
    const id = chatId('stop');
    const args = holdServeArgs(spec, ...(workers > 1 ? ['--workers', String(workers)] : []));
    serve = await startServe(args);
    const running = serve;
    const { stream } = await startHeldTurn(running, id);

    serve = undefined;
    expect(await running.stop('SIGTERM')).toBe(0);
    // The stop stayed within its bound: no process had to be killed or exit on its own timer.
    expect(running.stderr()).not.toContain('did not stop');
    expectStoppedStream(await stream);
    await expectInterruptedAndFree(spec, [id]);
    await expectAnsweredAfterRestart(args, [id]);
  });
});

describe.each(['sqlite', 'postgres', 'redis'] as const)(
  'SIGKILL of the primary of --workers 2 mid-turn on %s',
  (store) => {
    it('the workers drain before they exit: every turn in flight is committed as interrupted, no lease is left, and the next message is answered at once', async () => {
      const spec = stores[store]();
      const ids = [chatId('kill-a'), chatId('kill-b')];
      const args = holdServeArgs(spec, '--workers', '2');
      serve = await startServe(args);
      const running = serve;
      // Two chats mid-turn at once (the primary hands each connection to a worker in turn).
      const responses = await Promise.all(ids.map((id) => post(running.url, id, 'hold')));
      for (const response of responses) expect(response.status).toBe(200);
      // Read while the turns run: the streams end only when the workers stop them.
      const bodies = responses.map((response) => response.text());
      await running.waitForStderr(HOLD_STARTED, ids.length);

      serve = undefined;
      // Resolves once the output closes: the primary died at once, the workers once they drained.
      await running.stop('SIGKILL');
      expect(running.stderr()).not.toContain('did not stop');
      for (const body of bodies) expectStoppedStream(await body);
      await expectInterruptedAndFree(spec, ids);
      await expectAnsweredAfterRestart(args, ids);
    });
  },
);

describe('an idle skilltree serve stops at once', () => {
  it('with --workers 2, and with a keep-alive connection open, it exits 0 without killing a worker', async () => {
    serve = await startServe(holdServeArgs(stores.sqlite(), '--workers', '2'));
    // A browser keeps its connection open after a request.
    const agent = new HttpAgent({ keepAlive: true });
    const status = await new Promise<number>((resolve, reject) => {
      const req = httpRequest(`${serve!.url}/`, { agent }, (res) => {
        res.resume();
        res.on('end', () => resolve(res.statusCode ?? 0));
      });
      req.on('error', reject);
      req.end();
    });
    expect(status).toBe(200);
    const running = serve;
    serve = undefined;
    const code = await running.stop('SIGTERM');
    agent.destroy();
    expect(code).toBe(0);
    // Before, the workers outlived the primary's kill timer, which then killed them and said so.
    expect(running.stderr()).not.toContain('did not stop');
    expect(running.stderr()).not.toContain('killing it');
  });

  it('one process stops on Ctrl+C (SIGINT) as on SIGTERM', async () => {
    serve = await startServe(holdServeArgs());
    const running = serve;
    serve = undefined;
    expect(await running.stop('SIGINT')).toBe(0);
    expect(running.stderr()).not.toContain('did not stop');
  });
});
