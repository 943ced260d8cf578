/**
 * The session cache of `createSessions` is bounded by count and by memory (`cache: { maxChats,
 * maxBytes }`): past either bound the least recently used chat is let go, and its next turn
 * reloads it from the store with everything but its `useState`.
 */
import { describe, expect, test } from 'vitest';
import { createSession, createSessions } from '../src/index.js';
import { estimateSessionBytes } from '../src/provider.js';
import { bumper, CounterAgent } from './fixtures.js';

/** What one chat of CounterAgent after one turn is estimated to hold. */
async function oneChatBytes(): Promise<number> {
  const session = createSession(<CounterAgent />, { model: bumper() });
  await session.send('bump');
  const bytes = estimateSessionBytes(session);
  session.dispose();
  return bytes;
}

describe('the session cache', () => {
  test('past cache.maxBytes the least recently used chat is let go, and it reloads from the store intact', async () => {
    const chat = await oneChatBytes();
    // Room for two chats of about that size, not three.
    const sessions = createSessions(<CounterAgent />, { model: bumper(), cache: { maxBytes: 2.5 * chat } });
    expect((await sessions.send('a', 'bump')).text).toBe('count 1, local 1');
    expect((await sessions.send('b', 'bump')).text).toBe('count 1, local 1');
    expect((await sessions.send('c', 'bump')).text).toBe('count 1, local 1'); // a is let go
    // b stayed mounted: its useState goes on.
    expect((await sessions.send('b', 'bump')).text).toBe('count 2, local 2');
    // a reloads from the store: its agent store, skills and transcript as they were; useState anew.
    expect((await sessions.send('a', 'bump')).text).toBe('count 2, local 1'); // c is let go
    expect(await sessions.get('a')).toMatchObject({ loadedSkills: ['counter'], stores: { counter: { count: 2 } } });
    expect((await sessions.messages('a')).filter((m) => m.role === 'user')).toHaveLength(2);
    // b, used after c, is still mounted.
    expect((await sessions.send('b', 'bump')).text).toBe('count 3, local 3');
    await sessions.close();
  });

  test('a chat that alone is estimated over cache.maxBytes is not kept: each turn loads it from the store', async () => {
    const sessions = createSessions(<CounterAgent />, { model: bumper(), cache: { maxBytes: 1 } });
    expect((await sessions.send('a', 'bump')).text).toBe('count 1, local 1');
    expect((await sessions.send('a', 'bump')).text).toBe('count 2, local 1');
    await sessions.close();
  });

  test('cache.maxChats bounds the count, over the older cacheSize', async () => {
    const sessions = createSessions(<CounterAgent />, { model: bumper(), cacheSize: 5, cache: { maxChats: 1 } });
    await sessions.send('a', 'bump');
    await sessions.send('b', 'bump');
    expect((await sessions.send('a', 'bump')).text).toBe('count 2, local 1');
    await sessions.close();
    // cacheSize alone still works as it did.
    const older = createSessions(<CounterAgent />, { model: bumper(), cacheSize: 2 });
    await older.send('a', 'bump');
    await older.send('b', 'bump');
    expect((await older.send('a', 'bump')).text).toBe('count 2, local 2');
    await older.close();
  });

  test('a cache bound that is not a number of at least 0 is refused, naming the option', () => {
    expect(() => createSessions(<CounterAgent />, { cache: { maxBytes: -1 } })).toThrow(
      /cache\.maxBytes must be a number of at least 0 \(got -1\)/,
    );
    expect(() => createSessions(<CounterAgent />, { cache: { maxChats: Number.NaN } })).toThrow(/cache\.maxChats/);
  });

  test('a session’s estimated bytes grow with what it renders and with the transcript it keeps', async () => {
    const session = createSession(<CounterAgent />, { model: bumper() });
    const empty = estimateSessionBytes(session);
    await session.send('bump');
    const loaded = estimateSessionBytes(session);
    expect(loaded).toBeGreaterThan(empty);
    await session.send('bump');
    expect(estimateSessionBytes(session)).toBeGreaterThan(loaded);
    session.dispose();
  });
});
