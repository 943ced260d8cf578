/**
 * What the stream and the records say happened, happened: when the commit after a tool's result
 * fails, the tool has run. The stream says its result could not be saved (never "Not run"), and
 * the transcript, read back later, says the result was never saved.
 */
import { describe, expect, test } from 'vitest';
import { createSessions, type Model, memoryStore, type SessionEvent, type SessionStore } from '../src/index.js';
import { textOf } from '../src/parts/message-parts.js';
import { bumps, CounterAgent } from './fixtures.js';

const App = CounterAgent;

/** Reads the skill, bumps, replies "done". */
const model: Model = {
  async generate(req) {
    const last = req.messages[req.messages.length - 1];
    if (last.role === 'user')
      return { text: '', toolCalls: [{ id: '', name: 'read_skill', input: { name: 'counter' } }] };
    if (last.role === 'tool' && last.name === 'read_skill') {
      return { text: '', toolCalls: [{ id: '', name: 'bump', input: {} }] };
    }
    return { text: 'done', toolCalls: [] };
  },
};

/** A memory store whose commits fail, `failures` times, once a commit carries the `bump` result. */
function failingAfterBump(failures: number): { store: SessionStore; inner: SessionStore } {
  const inner = memoryStore();
  let left = failures;
  const store: SessionStore = Object.assign(Object.create(inner) as SessionStore, {
    async commit(...args: Parameters<SessionStore['commit']>) {
      const [, commit] = args;
      if (left > 0 && commit.append.some((m) => m.role === 'tool' && m.name === 'bump')) {
        left--;
        throw new Error('the database went away');
      }
      return inner.commit(...args);
    },
  });
  return { store, inner };
}

async function collect(events: AsyncIterable<SessionEvent>) {
  const seen: SessionEvent[] = [];
  try {
    for await (const event of events) seen.push(event);
    return { seen, error: null };
  } catch (error) {
    return { seen, error };
  }
}

describe('"could not be saved" is not "not run"', () => {
  test('when the commit after a tool fails, the stream says the tool ran and its result could not be saved', async () => {
    bumps.length = 0;
    const { store, inner } = failingAfterBump(Number.POSITIVE_INFINITY);
    const sessions = createSessions(<App />, { store, model });
    const { seen, error } = await collect(sessions.stream('c', 'bump it'));
    expect(String(error)).toContain('the database went away');
    expect(bumps).toEqual(['bump']);
    const results = seen.filter((e) => e.type === 'tool-result').map((e) => e.message);
    expect(results.at(-1)).toMatchObject({ name: 'bump', isError: true });
    expect(textOf(results.at(-1)!)).toBe(
      'Tool "bump" ran, but its result could not be saved. It may have taken effect; check before calling it again.',
    );
    expect(JSON.stringify(seen)).not.toMatch(/Not run/);
    // Read back later, the transcript says the result was never saved, not that the call did not run.
    const next = createSessions(<App />, { store: inner, model });
    await next.send('c', 'again');
    const bump = (await inner.messages('c', 0, 100)).find((m) => m.role === 'tool' && m.name === 'bump');
    expect(textOf(bump!)).toMatch(/^Interrupted: this call's result was never saved/);
    expect(JSON.stringify(await inner.messages('c', 0, 100))).not.toMatch(/Not run|did not finish/);
  });

  test('when a later commit of the turn saves the result after all, the stream shows the real result', async () => {
    bumps.length = 0;
    const { store, inner } = failingAfterBump(1);
    const sessions = createSessions(<App />, { store, model });
    const { seen, error } = await collect(sessions.stream('c', 'bump it'));
    expect(String(error)).toContain('the database went away');
    const results = seen.filter((e) => e.type === 'tool-result').map((e) => e.message);
    expect(results.at(-1)).toMatchObject({ name: 'bump' });
    expect(textOf(results.at(-1)!)).toMatch(/^bumped/);
    const messages = await inner.messages('c', 0, 100);
    expect(messages.at(-1)).toEqual(results.at(-1));
    expect((await inner.record('c'))?.state.stores).toEqual({ counter: { count: 1 } });
  });
});
