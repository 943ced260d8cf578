/**
 * An answer's signal to the waiting turn is a recorded step; the engine may fail to send it (an
 * ingress that refused, a database that blinked). The step sends again (a wait keeps the first
 * value it gets, so twice is harmless), backing off, until a signal goes out, and records only
 * that: neither a failed signal nor a failure is ever its value (an engine would replay it, and the
 * waiting turn would never end). Meanwhile the answer's workflow is pending; if its process dies,
 * the recovery rule for answers finds it abandoned (the chat names the turn it answered):
 * recovered elsewhere, it signals, and the waiting run ends. The engine is the in-memory shared
 * journal, with waits.
 */
import { expect, test } from 'vitest';
import { createSessions, type Model, memoryStore } from '../src/index.js';
import { durableWaitOf, WaitUndeliverableError } from '../src/provider.js';
import { ApprovalShop } from './charging-shop.js';
import { sharedJournal } from './shared-journal.js';

/** A chat waiting for approval in process A, and process B (whose engine fails to send `failures` signals) to answer. */
async function waitingChat(failures: number, failure: () => Error = () => new Error('ingress refused the signal')) {
  const journal = sharedJournal({ waits: true });
  const store = memoryStore();
  const ran: string[] = [];
  const model = (): Model => ({
    name: 'shop',
    async generate(request) {
      return request.messages.at(-1)?.role === 'user'
        ? { text: '', toolCalls: [{ id: 'pay-1', name: 'charge', input: {} }] }
        : { text: 'Done.', toolCalls: [] };
    },
  });
  const a = journal.process();
  const asking = createSessions(<ApprovalShop ran={ran} />, { store, model, engine: a.engine });
  await asking.send('c1', 'Charge me');
  const wait = (await durableWaitOf(store, 'c1', undefined)) as { turn: string; wait: string };
  const waiting = a.runs.find((r) => r.turnId === wait.turn);
  const b = journal.process();
  const send = b.engine.signal as NonNullable<typeof b.engine.signal>;
  const tries: string[] = [];
  let left = failures;
  let tried = () => {};
  b.engine.signal = async (id, value) => {
    tries.push(id);
    tried();
    if (left-- > 0) throw failure();
    return send(id, value);
  };
  /** Resolves once the engine was asked to send `n` signals. */
  const triedTimes = (n: number) =>
    new Promise<void>((resolve) => {
      const check = () => (tries.length >= n ? resolve() : undefined);
      tried = check;
      check();
    });
  const answering = createSessions(<ApprovalShop ran={ran} />, { store, model, engine: b.engine });
  return { journal, store, ran, model, wait, waiting, b, tries, triedTimes, asking, answering };
}

test('a signal the engine fails to send twice is sent again inside its step: the waiting run ends, and the step records the signal that went out', async () => {
  const { journal, wait, waiting, b, tries, asking, answering } = await waitingChat(2);
  expect((await answering.approve('c1', 'pay-1')).text).toBe('Done.');
  const answer = b.runs[0]?.turnId as string;
  expect(await b.runs[0]?.ended).toEqual(expect.objectContaining({ text: 'Done.' }));
  expect(tries).toEqual([wait.wait, wait.wait, wait.wait]);
  expect(await waiting?.ended).toEqual({ continuation: answer, text: 'Done.', waiting: 0 });
  expect(journal.recorded(answer)).toContain(`signal-${wait.turn}`);
  await Promise.all([asking.close(), answering.close()]);
});

test('a signal that keeps failing is sent again until it goes out: the answer records no failure, and the waiting run ends once a send works', async () => {
  const { journal, wait, waiting, b, tries, asking, answering } = await waitingChat(5);
  expect((await answering.approve('c1', 'pay-1')).text).toBe('Done.');
  const answer = b.runs[0]?.turnId as string;
  expect(await b.runs[0]?.ended).toEqual(expect.objectContaining({ text: 'Done.' }));
  expect(tries).toHaveLength(6);
  expect(await waiting?.ended).toEqual({ continuation: answer, text: 'Done.', waiting: 0 });
  expect(journal.recorded(answer)).toContain(`signal-${wait.turn}`);
  await Promise.all([asking.close(), answering.close()]);
});

test('an answer whose process dies while its signal keeps failing is recovered by another process, which signals: the waiting run ends', async () => {
  const { journal, store, ran, model, wait, waiting, b, triedTimes, asking, answering } = await waitingChat(
    Number.POSITIVE_INFINITY,
  );
  // The caller has its turn; the answer's workflow stays pending while it tries, and records nothing.
  expect((await answering.approve('c1', 'pay-1')).text).toBe('Done.');
  const answer = b.runs[0]?.turnId as string;
  await triedTimes(3);
  expect(b.runs[0]?.settled).toBe(false);
  expect(journal.recorded(answer)).not.toContain(`signal-${wait.turn}`);
  expect(waiting?.settled).toBe(false);
  // The chat names the turn the answer answered: the recovery rule for answers finds it abandoned.
  expect((await store.record('c1'))?.state.answered).toBe(wait.turn);
  const before = (await store.record('c1'))?.length;
  const c = journal.process();
  const recovering = createSessions(<ApprovalShop ran={ran} />, { store, model, engine: c.engine });
  expect(await c.abandoned(answer)).toBe(true);
  await c.recover(answer);
  expect(await waiting?.ended).toEqual({ continuation: answer, text: 'Done.', waiting: 0 });
  expect(ran).toEqual(['charge']);
  expect((await store.record('c1'))?.length).toBe(before);
  await Promise.all([asking.close(), answering.close(), recovering.close()]);
});

test('a wait no signal can ever reach (the engine says so) is not signalled again: the answer records it and ends', async () => {
  const { journal, wait, b, tries, asking, answering } = await waitingChat(
    Number.POSITIVE_INFINITY,
    () => new WaitUndeliverableError(wait.wait, 'no such workflow'),
  );
  expect((await answering.approve('c1', 'pay-1')).text).toBe('Done.');
  const answer = b.runs[0]?.turnId as string;
  // The answer's workflow ends (it would otherwise send every 5 s for as long as its process lives).
  expect(await b.runs[0]?.ended).toEqual(expect.objectContaining({ text: 'Done.' }));
  expect(tries).toEqual([wait.wait]);
  expect(journal.steps(answer).get(`signal-${wait.turn}`)).toEqual({
    undeliverable: expect.stringContaining('no such workflow'),
  });
  await Promise.all([asking.close(), answering.close()]);
});

test('an undeliverable wait with a hostile id (10 KB, an object whose toString throws) is named in a short message, never thrown on', () => {
  const long = new WaitUndeliverableError(`${'x'.repeat(10_240)}#wait:answers`, 'no such workflow');
  expect(long.waitId).toHaveLength(80);
  expect(long.message.length).toBeLessThan(200);
  const hostile = {
    toString(): string {
      throw new Error('boom');
    },
  };
  const odd = new WaitUndeliverableError(hostile, 'not a string');
  expect(odd.waitId).toBe('(object)');
  expect(odd.message).toBe('No signal can reach wait "(object)": not a string. The answer ends without signalling it.');
});
