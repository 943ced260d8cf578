/**
 * A turn this process recovers (an engine hands it a turn of a dead process) while `sessions.close()`
 * runs, or after it, is left pending for another process: never failed. An engine records a turn
 * whose body threw as ended (DBOS's ERROR status, Restate's terminal failure) and never recovers it
 * again, so a recovered turn failed by the closing process's store would never be finished.
 */
import { describe, expect, test } from 'vitest';
import { Agent, createSessions, memoryStore, Tool, TurnHandedOverError } from '../src/index.js';
import type { SessionStore } from '../src/provider.js';
import { countingChargeModel } from './charging-shop.js';
import { gate, pending } from './gate.js';
import { sharedJournal } from './shared-journal.js';

/**
 * The memory store as a real store behaves once closed (a database pool that was ended): every call
 * rejects. With `busy`, the chat's lease is another holder's: each lease request says so, and
 * `busy.asked` opens at the first.
 */
function closableStore(inner: SessionStore, busy?: { asked: () => void }): SessionStore {
  let closed = false;
  return new Proxy(inner, {
    get(target, key, receiver) {
      const value = Reflect.get(target, key, receiver);
      if (typeof value !== 'function') return value;
      if (key === 'close') {
        return async () => {
          closed = true;
        };
      }
      return async (...args: unknown[]) => {
        if (closed) throw new Error(`store closed: ${String(key)}`);
        if (key === 'acquire' && busy) {
          busy.asked();
          return false;
        }
        return value.apply(target, args);
      };
    },
  });
}

function shop(run: () => Promise<string>) {
  return (
    <Agent>
      <Tool name="charge" description="Charges the card" run={() => run()} />
    </Agent>
  );
}

/** A turn handed over by a closing process A (its tool held), on `store`: the turn's id. */
async function handedOverTurn(journal: ReturnType<typeof sharedJournal>, store: SessionStore, asked: string[]) {
  const started = gate();
  const a = journal.process();
  const closing = createSessions(
    shop(() => {
      started.open();
      return new Promise<string>(() => {});
    }),
    { store, model: countingChargeModel(asked), engine: a.engine },
  );
  const sending = closing.send('c1', 'Charge me').catch((error: unknown) => error);
  await started.opened;
  await closing.close({ timeout: 0 });
  expect(await sending).toBeInstanceOf(TurnHandedOverError);
  return a.runs[0].turnId;
}

describe('a turn recovered while its process closes', () => {
  test('recovered after close() (no turn of its own running): left pending, never failed; another process finishes it', async () => {
    const journal = sharedJournal();
    const memory = memoryStore();
    const asked: string[] = [];
    const turnId = await handedOverTurn(journal, memory, asked);
    // Process B closes with nothing running, then its engine hands it the dead turn.
    const b = journal.process();
    const closed = createSessions(
      shop(async () => 'charged'),
      { store: closableStore(memory), model: countingChargeModel(asked), engine: b.engine },
    );
    await closed.close({ timeout: 0 });
    const recovering = b.recover(turnId);
    recovering.catch(() => {});
    expect(await pending(recovering)).toBe(true);
    // Process C finishes it: the recorded model call replays, only the answer is asked.
    const c = journal.process();
    const taking = createSessions(
      shop(async () => 'charged'),
      { store: memory, model: countingChargeModel(asked), engine: c.engine },
    );
    expect(((await c.recover(turnId)) as { text: string }).text).toBe('Charged.');
    expect(asked).toEqual(['charge', 'answer']);
    expect((await taking.messages('c1')).map((m) => m.role)).toEqual(['user', 'assistant', 'tool', 'assistant']);
    await taking.close();
  });

  test('recovered while close() hands over (before it opened the chat): left pending, never failed', async () => {
    const journal = sharedJournal();
    const memory = memoryStore();
    const asked: string[] = [];
    const turnId = await handedOverTurn(journal, memory, asked);
    // B's recovered turn is waiting for the chat's lease (another holder has it) when B closes.
    const leaseAsked = gate();
    const b = journal.process();
    const closing = createSessions(
      shop(async () => 'charged'),
      { store: closableStore(memory, { asked: leaseAsked.open }), model: countingChargeModel(asked), engine: b.engine },
    );
    const recovering = b.recover(turnId);
    recovering.catch(() => {});
    await leaseAsked.opened;
    await closing.close({ timeout: 0 });
    expect(await pending(recovering)).toBe(true);
    expect(asked).toEqual(['charge']);
  });

  test('a caller whose turn had not begun when close() handed over hears it was not handed over, and to send it again', async () => {
    const journal = sharedJournal();
    const leaseAsked = gate();
    const a = journal.process();
    const closing = createSessions(
      shop(async () => 'charged'),
      {
        store: closableStore(memoryStore(), { asked: leaseAsked.open }),
        model: countingChargeModel([]),
        engine: a.engine,
      },
    );
    const sending = closing.send('c1', 'Charge me').catch((error: unknown) => error);
    await leaseAsked.opened;
    await closing.close({ timeout: 0 });
    const error = (await sending) as TurnHandedOverError;
    expect(error).toBeInstanceOf(TurnHandedOverError);
    expect(error.handedOver).toBe(false);
    expect(error.message).toMatch(/before this turn began/);
    expect(error.message).toMatch(/Send the message \(or the answers\) again/);
    expect(error.message).not.toMatch(/the turn was handed over/);
  });
});
