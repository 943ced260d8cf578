/**
 * An answer's signal to the waiting turn is a recorded step; the engine may fail to send it (an
 * ingress that refused, a database that blinked). The step sends again a few times (a wait keeps
 * the first value it gets, so twice is harmless) and records only a signal that went out: a failed
 * one is never its value. A signal that never goes out fails the answer's workflow where the
 * engine shows it, and the answer's run is still found abandoned by the recovery rule for answers
 * (the chat names the turn it answered): recovered, it signals, and the waiting run ends. The
 * engine is the in-memory shared journal, with waits.
 */
import { expect, test } from 'vitest';
import { createSessions, type Model, memoryStore } from '../src/index.js';
import { durableWaitOf } from '../src/provider.js';
import { SIGNAL_ATTEMPTS } from '../src/sessions/durable-wait.js';
import { ChargingShop } from './charging-shop.js';
import { sharedJournal } from './shared-journal.js';

/** The shop of these tests: each `charge` call waits for an approval; the charges that ran are noted in `ran`. */
const Shop = ({ ran }: { ran: string[] }) => <ChargingShop needsApproval onCharge={() => ran.push('charge')} />;

/** A chat waiting for approval in process A, and process B (whose engine fails to send `failures` signals) to answer. */
async function waitingChat(failures: number) {
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
  const asking = createSessions(<Shop ran={ran} />, { store, model, engine: a.engine });
  await asking.send('c1', 'Charge me');
  const wait = (await durableWaitOf(store, 'c1', undefined)) as { turn: string; wait: string };
  const waiting = a.runs.find((r) => r.turnId === wait.turn);
  const b = journal.process();
  const send = b.engine.signal as NonNullable<typeof b.engine.signal>;
  const tries: string[] = [];
  let left = failures;
  b.engine.signal = async (id, value) => {
    tries.push(id);
    if (left-- > 0) throw new Error('ingress refused the signal');
    return send(id, value);
  };
  const answering = createSessions(<Shop ran={ran} />, { store, model, engine: b.engine });
  return { journal, store, ran, model, wait, waiting, b, tries, asking, answering };
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

test('a signal that never goes out fails the answer visibly, records no value, and the recovered answer signals: the waiting run ends', async () => {
  const { journal, store, ran, model, wait, waiting, b, tries, asking, answering } = await waitingChat(
    Number.POSITIVE_INFINITY,
  );
  // The caller has its turn; the answer's workflow fails, naming the waiting turn.
  expect((await answering.approve('c1', 'pay-1')).text).toBe('Done.');
  const answer = b.runs[0]?.turnId as string;
  await expect(b.runs[0]?.ended).rejects.toThrow(`could not signal waiting turn ${wait.turn}`);
  expect(tries).toHaveLength(SIGNAL_ATTEMPTS);
  expect(journal.recorded(answer)).not.toContain(`signal-${wait.turn}`);
  expect(waiting?.settled).toBe(false);
  // The chat names the turn the answer answered: the recovery rule for answers finds it abandoned.
  expect((await store.record('c1'))?.state.answered).toBe(wait.turn);
  const before = (await store.record('c1'))?.length;
  const c = journal.process();
  const recovering = createSessions(<Shop ran={ran} />, { store, model, engine: c.engine });
  expect(await c.abandoned(answer)).toBe(true);
  await c.recover(answer);
  expect(await waiting?.ended).toEqual({ continuation: answer, text: 'Done.', waiting: 0 });
  expect(ran).toEqual(['charge']);
  expect((await store.record('c1'))?.length).toBe(before);
  await Promise.all([asking.close(), answering.close(), recovering.close()]);
});
