/**
 * A turn that fails because its store failed (an outage) cannot give its lease back then. It is
 * known to have failed, so that lease must not hold the chat's next message until it expires: it
 * is given back as soon as the store answers again, first thing by the next turn on the chat in
 * the same process, and in the background for turns anywhere else.
 */
import { describe, expect, test } from 'vitest';
import { createSessions, type Model, memoryStore, type SessionStore } from '../src/index.js';
import { textOf } from '../src/parts/message-parts.js';
import { CounterAgent } from './fixtures.js';

/** A memory store that can go down (every call fails) and come back; it reports each release that lands. */
function flakyStore() {
  const inner = memoryStore();
  const state = { down: false };
  const released: string[] = [];
  let onRelease = () => {};
  const store = Object.create(inner) as SessionStore;
  for (const key of ['record', 'load', 'messages', 'acquire', 'renew', 'release', 'commit', 'delete'] as const) {
    (store as unknown as Record<string, unknown>)[key] = async (...args: unknown[]) => {
      if (state.down) throw new Error('the store went away');
      const result = await (inner[key] as (...a: unknown[]) => Promise<unknown>)(...args);
      if (key === 'release') {
        released.push(args[1] as string);
        onRelease();
      }
      return result;
    };
  }
  const nextRelease = () => new Promise<void>((resolve) => (onRelease = resolve));
  return { store, inner, state, released, nextRelease };
}

/** Says hello, except that the turn `hold` waits in its model call until `go` opens. */
function holdingModel(go: Promise<void>, entered: () => void): Model {
  return {
    async generate(req) {
      const last = req.messages[req.messages.length - 1];
      if (last.role === 'user' && textOf(last) === 'hold') {
        entered();
        await go;
      }
      return { text: `hello: ${last.role === 'user' ? textOf(last) : ''}`, toolCalls: [] };
    },
  };
}

/** Runs turn `hold` on chat `c` and takes the store down while it waits, so that it fails with the store. */
async function failWithTheStore(flaky: ReturnType<typeof flakyStore>) {
  let open = () => {};
  const go = new Promise<void>((resolve) => (open = resolve));
  let entered = () => {};
  const inCall = new Promise<void>((resolve) => (entered = resolve));
  // A lease of 10 minutes and onBusy 'reject': only a release frees the chat, and a held lease fails at once.
  const sessions = createSessions(<CounterAgent />, {
    store: flaky.store,
    model: holdingModel(go, entered),
    onBusy: 'reject',
    leaseTtl: 600_000,
  });
  const turn = sessions.send('c', 'hold').catch((error: unknown) => error);
  await inCall;
  flaky.state.down = true;
  open();
  expect(String(await turn)).toContain('the store went away');
  return sessions;
}

describe("a failed turn's lease does not outlive a store outage", () => {
  test('the next turn on the chat in the same process gives it back first, and is answered at once', async () => {
    const flaky = flakyStore();
    const sessions = await failWithTheStore(flaky);
    flaky.state.down = false;
    expect((await sessions.send('c', 'again')).text).toBe('hello: again');
    await sessions.close();
  });

  test('once the store answers again, the process gives it back by itself: another process is answered at once', async () => {
    const flaky = flakyStore();
    const released = flaky.nextRelease();
    const sessions = await failWithTheStore(flaky);
    flaky.state.down = false;
    // The retry in the background lands: no turn of this process had to ask for it.
    await released;
    const other = createSessions(<CounterAgent />, {
      store: flaky.inner,
      model: holdingModel(Promise.resolve(), () => {}),
      onBusy: 'reject',
    });
    expect((await other.send('c', 'from elsewhere')).text).toBe('hello: from elsewhere');
    await other.close();
    await sessions.close();
  });

  test('a process that closes once the store is back leaves no lease of a failed turn behind', async () => {
    const flaky = flakyStore();
    const sessions = await failWithTheStore(flaky);
    flaky.state.down = false;
    const before = flaky.released.length;
    await sessions.close();
    expect(flaky.released.length).toBeGreaterThan(before);
    expect(await flaky.inner.acquire('c', 'someone else', 1_000)).toBe(true);
  });
});
