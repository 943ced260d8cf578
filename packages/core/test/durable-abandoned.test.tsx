/**
 * Which pending turns an engine's recovery watch may take (`DurableRegistration.abandoned`): a turn
 * whose process died before its first commit leaves no mark in the chat, so only an engine that
 * knows the process is gone (`{ unreachable: true }`: its endpoint refuses connections) may take it,
 * and then the recovered turn runs its message. The engine is the in-memory shared journal.
 */
import { expect, test } from 'vitest';
import { createSessions, memoryStore } from '../src/index.js';
import { Echo, echo } from './echo-agent.js';
import { sharedJournal } from './shared-journal.js';

test('a turn whose process died before its first commit is abandoned only when the engine knows that process is gone; recovered, it runs its message', async () => {
  const journal = sharedJournal();
  const store = memoryStore();
  const a = journal.process();
  const first = createSessions(<Echo />, { store, model: echo, engine: a.engine });
  await first.send('c1', 'one');
  // Process B takes the next message and dies at the turn's first step, before it commits anything.
  const b = journal.process({ dieAt: 'open' });
  // Its lease is as good as expired: the store keeps none of it (a dead process renews nothing).
  const forgetful = Object.assign(Object.create(store) as typeof store, {
    acquire: async () => true,
    renew: async () => true,
    release: async () => {},
  });
  const dying = createSessions(<Echo />, { store: forgetful, model: echo, engine: b.engine });
  void dying.send('c1', 'two').catch(() => {});
  await b.died;
  const lost = b.runs[0]?.turnId as string;
  expect((await store.record('c1'))?.length).toBe(2);

  const c = journal.process();
  const recovering = createSessions(<Echo />, { store, model: echo, engine: c.engine });
  // The chat shows no turn running: without more, that is a live turn about to begin, or one that ended.
  expect(await c.abandoned(lost)).toBe(false);
  expect(await c.abandoned(lost, { unreachable: true })).toBe(true);
  await c.recover(lost);
  const messages = await recovering.messages('c1');
  expect(messages.map((m) => m.role)).toEqual(['user', 'assistant', 'user', 'assistant']);
  await Promise.all([first.close(), recovering.close()]);
});
