/**
 * A stop reaches the turn wherever it runs: `sessions.stop(id)` stops a turn of this process at
 * once, and one of another process (another `createSessions` on the same store) through the store.
 * A turn waiting behind the stopped one runs next; a stop with nothing running stops nothing. The
 * same rules on every store are in `@skilltree/store/testing` (the `stops` topic).
 */
import { describe, expect, test } from 'vitest';
import { Agent, createSessions, type Model, memoryStore, type SessionStore, Tool } from '../src/index.js';
import { textOf } from '../src/parts/message-parts.js';
import { gate } from './gate.js';

/** `hold` runs until its turn is aborted, and says when it starts. */
function holdAgent(started: () => void) {
  return (
    <Agent>
      <Tool
        name="hold"
        description="Holds until the turn is stopped"
        run={(_input, ctx) =>
          new Promise<string>((_resolve, reject) => {
            started();
            ctx.signal.addEventListener('abort', () => reject(ctx.signal.reason), { once: true });
          })
        }
      />
    </Agent>
  );
}

/** `hold` calls the tool (then says "held"); anything else is echoed. */
const model: Model = {
  async generate(req) {
    const last = req.messages[req.messages.length - 1];
    const text = textOf(req.messages.findLast((m) => m.role === 'user')!);
    if (text !== 'hold') return { text: `echo: ${text}`, toolCalls: [] };
    if (last.role === 'user') return { text: '', toolCalls: [{ id: '', name: 'hold', input: {} }] };
    return { text: 'held', toolCalls: [] };
  },
};

/** Two processes on one store: each its own `createSessions`, sharing nothing but the store. */
function twoProcesses(store: SessionStore = memoryStore()) {
  const inTool = gate();
  const first = createSessions(holdAgent(inTool.open), { store, model });
  const second = createSessions(
    holdAgent(() => {}),
    { store, model },
  );
  return { store, first, second, inTool: inTool.opened };
}

describe('sessions.stop(id) reaches the turn wherever it runs', () => {
  test('a stop from another process stops the running turn: the call in flight is committed as interrupted and the chat goes on', async () => {
    const { first, second, inTool } = twoProcesses();
    const running = first.send('c1', 'hold', { owner: 'alice' }).catch((error: unknown) => error);
    await inTool;
    expect(await second.stop('c1', { owner: 'alice' })).toBe(true);
    const error = (await running) as Error;
    expect(error.name).toBe('AbortError');
    expect(error.message).toMatch(/^Interrupted: the turn of chat "c1" was stopped \(sessions\.stop\(\)/);
    const messages = await second.messages('c1', { owner: 'alice' });
    expect(messages.map((m) => m.role)).toEqual(['user', 'assistant', 'tool']);
    expect(messages[2]).toMatchObject({ role: 'tool', name: 'hold', isError: true, errorKind: 'interrupted' });
    expect(textOf(messages[2])).toMatch(/^Tool "hold" failed: Interrupted: the turn of chat "c1" was stopped/);
    // The lease was given back: the next message is answered, here or there, and nothing runs.
    expect((await second.get('c1', { owner: 'alice' }))?.running).toBeNull();
    expect((await second.send('c1', 'still there?', { owner: 'alice' })).text).toBe('echo: still there?');
    expect(await first.stop('c1', { owner: 'alice' })).toBe(false);
    await first.close();
    await second.close();
  });

  test('a stop in the same process stops its turn at once, without asking the store', async () => {
    const inner = memoryStore();
    const asked: string[] = [];
    const store: SessionStore = Object.assign(Object.create(inner) as SessionStore, {
      async requestStop(id: string) {
        asked.push(id);
        return inner.requestStop(id);
      },
    });
    const inTool = gate();
    const sessions = createSessions(holdAgent(inTool.open), { store, model });
    const running = sessions.send('c1', 'hold').catch((error: unknown) => error);
    await inTool.opened;
    expect(await sessions.stop('c1')).toBe(true);
    expect(await running).toMatchObject({ name: 'AbortError' });
    expect(asked).toEqual([]);
    await sessions.close();
  });

  test("a turn waiting behind the stopped one (onBusy: 'wait') is not stopped: it runs next and is answered", async () => {
    const store = memoryStore();
    const { first, inTool } = twoProcesses(store);
    // The other process's store says when it was refused the chat's lease: its message waits.
    const queuedUp = gate();
    const watched: SessionStore = Object.assign(Object.create(store) as SessionStore, {
      async acquire(...args: Parameters<SessionStore['acquire']>) {
        const held = await store.acquire(...args);
        if (!held) queuedUp.open();
        return held;
      },
    });
    const second = createSessions(
      holdAgent(() => {}),
      { store: watched, model },
    );
    const running = first.send('c1', 'hold').catch((error: unknown) => error);
    await inTool;
    const queued = second.send('c1', 'after');
    await queuedUp.opened;
    expect(await second.stop('c1')).toBe(true);
    expect(await running).toMatchObject({ name: 'AbortError' });
    expect((await queued).text).toBe('echo: after');
    const messages = await first.messages('c1');
    expect(messages.filter((m) => m.role === 'user').map(textOf)).toEqual(['hold', 'after']);
    await first.close();
    await second.close();
  });

  test("a stop reaches only the owner's own chat: another owner's stop, or one with nothing running, stops nothing", async () => {
    const { first, second, inTool } = twoProcesses();
    const running = first.send('c1', 'hold', { owner: 'alice' }).catch((error: unknown) => error);
    await inTool;
    expect(await second.stop('c1', { owner: 'mallory' })).toBe(false);
    expect(await second.stop('c1')).toBe(false);
    expect(await second.stop('never-used', { owner: 'alice' })).toBe(false);
    // Alice's turn still runs: only her own stop ends it.
    expect((await second.get('c1', { owner: 'alice' }))?.running).not.toBeNull();
    expect(await second.stop('c1', { owner: 'alice' })).toBe(true);
    expect(await running).toMatchObject({ name: 'AbortError' });
    // A stop asked while nothing ran is not left for the next turn.
    expect((await second.send('c1', 'next', { owner: 'alice' })).text).toBe('echo: next');
    await first.close();
    await second.close();
  });

  test('a store without requestStop() and stopRequested() (an older SessionStore) is refused up front, saying what to update', () => {
    const { requestStop: _, ...older } = memoryStore();
    expect(() =>
      createSessions(
        holdAgent(() => {}),
        { store: older as never, model },
      ),
    ).toThrow(/has no requestStop\(id\) and stopRequested\(id, holder\)/);
  });
});
