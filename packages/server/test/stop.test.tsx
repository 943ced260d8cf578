/**
 * `POST /chat/:id/stop` stops the chat's running turn wherever it runs: in this worker, or in another
 * one on the same store (the stop goes through the store). A message sent while the turn ran waits
 * for it (`onBusy: 'wait'`) and is answered once it stopped; the stop never lands on it.
 */
import { memoryStore, type SessionStore } from '@skilltree/core';
import { afterEach, describe, expect, it } from 'vitest';
import { client, startServer, type TestServer, transcriptIsValid, waiting } from './helpers.js';

const servers: TestServer[] = [];
afterEach(async () => {
  for (const server of servers.splice(0)) await server.close();
});

async function start(store: SessionStore): Promise<TestServer> {
  const server = await startServer({ sessionsOptions: { store } });
  servers.push(server);
  return server;
}

const stop = (server: TestServer, user = 'alice') => client(server.url, user).stop('c1');

/** `store`, telling `onRefused` each time a turn is refused the lease (it waits for the chat). */
function watched(store: SessionStore, onRefused: () => void): SessionStore {
  return Object.assign(Object.create(store) as SessionStore, {
    async acquire(...args: Parameters<SessionStore['acquire']>) {
      const held = await store.acquire(...args);
      if (!held) onRefused();
      return held;
    },
  });
}

/**
 * Sends `wait` (a tool that runs until its turn is stopped) to `server` and resolves once the tool
 * runs, with the reply still streaming.
 */
async function runningTurn(server: TestServer) {
  const before = waiting.count;
  const reply = client(server.url).send('c1', 'wait');
  while (waiting.count === before) await new Promise((r) => setTimeout(r, 10));
  return { reply };
}

/** The stopped turn's stream ends with the call's error and the turn's end, as the client reads it. */
async function expectStopped(reply: ReturnType<ReturnType<typeof client>['send']>) {
  const { chunks } = await reply;
  expect(chunks).toContainEqual(expect.objectContaining({ type: 'tool-output-error' }));
  expect(chunks.at(-1)).toEqual({ type: 'error', errorText: 'The turn was stopped.' });
}

/** The chat's transcript is valid, with the `wait` call answered as interrupted. */
async function expectInterrupted(server: TestServer) {
  const messages = await server.sessions.messages('c1', { owner: 'alice', limit: 100 });
  expect(transcriptIsValid(messages)).toBe(true);
  expect(messages.find((m) => m.role === 'tool' && m.name === 'wait')).toMatchObject({
    isError: true,
    errorKind: 'interrupted',
  });
}

describe('POST /chat/:id/stop', () => {
  it("a stop after a second message to a busy chat stops the running turn, and the queued message (onBusy: 'wait') is answered", async () => {
    let refused = () => {};
    const queuedUp = new Promise<void>((resolve) => (refused = resolve));
    const server = await start(watched(memoryStore(), () => refused()));
    const { reply } = await runningTurn(server);
    const second = client(server.url).send('c1', 'hello');
    await queuedUp;
    expect((await stop(server)).status).toBe(202);
    await expectStopped(reply);
    const { message, chunks } = await second;
    // The queued message's own answer, after the stopped turn: never a 500 or a stop of its own.
    expect(message.parts.at(-1)).toMatchObject({ type: 'text', text: 'echo: hello' });
    expect(chunks.at(-1)).toEqual({ type: 'finish', finishReason: 'stop' });
    await expectInterrupted(server);
    // Nothing runs any more: a stop finds nothing (204).
    expect((await stop(server)).status).toBe(204);
  });

  it('a stop sent to another worker stops the turn where it runs (two handlers on one store)', async () => {
    const store = memoryStore();
    const worker1 = await start(store);
    const worker2 = await start(store);
    const { reply } = await runningTurn(worker1);
    // Another user's stop, on either worker, finds nothing of theirs.
    expect((await stop(worker2, 'bob')).status).toBe(204);
    expect((await stop(worker2)).status).toBe(202);
    await expectStopped(reply);
    await expectInterrupted(worker2);
    // The chat goes on, on either worker.
    const next = await client(worker2.url).send('c1', 'still there?');
    expect(next.message.parts.at(-1)).toMatchObject({ type: 'text', text: 'echo: still there?' });
  });
});
