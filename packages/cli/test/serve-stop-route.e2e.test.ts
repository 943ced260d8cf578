/**
 * `POST /api/chat/:id/stop` reaches the turn wherever it runs: sent to another `skilltree serve`
 * process on the same store, or to `serve --workers 2` (whichever worker takes it), it stops the
 * running turn, whose stream ends as stopped; the chat goes on. Against real SQLite, PostgreSQL and
 * Redis. Every wait is on an event (output, a stream's end), never on a clock.
 */
import { describe, expect, it } from 'vitest';
import {
  chatId,
  expectHelloEchoed,
  holdServeArgs,
  type ServeProcess,
  startHeldTurn,
  startServe,
  stopServesAfterEach,
  testStores,
} from './serve-helpers.js';

stopServesAfterEach();

const stores = testStores('skilltree-serve-stop-route-');

function serve(spec: string, extra: string[] = []): Promise<ServeProcess> {
  return startServe(holdServeArgs(spec, ...extra));
}

/** A stop on a connection of its own: with `--workers`, the primary hands it to either worker. */
function stop(url: string, id: string): Promise<Response> {
  return fetch(`${url}/api/chat/${encodeURIComponent(id)}/stop`, { method: 'POST', headers: { connection: 'close' } });
}

/** The stopped turn's stream: the call in flight fails as interrupted, and the turn ends as stopped. */
function expectStopped(sse: string): void {
  expect(sse).toContain('"type":"tool-output-error","toolCallId":"h1"');
  expect(sse).toContain('Interrupted: the turn of chat');
  expect(sse).toContain('"type":"error","errorText":"The turn was stopped."');
}

/**
 * A turn that holds the line on `runsOn`, stopped through `stopsOn` once it runs: the stop is
 * accepted (202) and the turn's stream ends as stopped.
 */
async function holdAndStop(runsOn: ServeProcess, stopsOn: ServeProcess, id: string): Promise<void> {
  const { stream } = await startHeldTurn(runsOn, id);
  expect((await stop(stopsOn.url, id)).status).toBe(202);
  expectStopped(await stream);
}

describe.each(['sqlite', 'postgres', 'redis'] as const)('a stop on %s', (store) => {
  it('sent to another serve process on the same store, stops the turn where it runs; the chat goes on there', async () => {
    const spec = stores[store]();
    const [first, second] = await Promise.all([serve(spec), serve(spec)]);
    const id = chatId('cross');
    await holdAndStop(first, second, id);
    // Nothing runs now, on either process; the next message is answered by the one that stopped it.
    expect((await stop(first.url, id)).status).toBe(204);
    await expectHelloEchoed(second.url, id);
  });
});

describe('a stop under serve --workers 2', () => {
  it('stops the turn whichever worker takes it', async () => {
    const primary = await serve(stores.sqlite(), ['--workers', '2']);
    const id = chatId('workers');
    await holdAndStop(primary, primary, id);
    // Every later stop, on either worker, finds nothing running.
    for (let i = 0; i < 4; i++) expect((await stop(primary.url, id)).status).toBe(204);
  });
});
