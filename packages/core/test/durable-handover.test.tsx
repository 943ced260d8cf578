/**
 * `sessions.close()` on a durable engine hands the running turns over instead of stopping them: a
 * deploy or a scale-down closes a process, the user did not ask for the turn to stop. The caller in
 * the closing process hears a `TurnHandedOverError`; from the handover on, nothing is recorded or
 * committed there (a step that ends late is not recorded), the lease is given up at once, and
 * another process recovers the turn and finishes it. A user's stop still stops a turn. The same
 * rules on real engines with real processes are in `@skilltree/durable/testing`.
 */
import { describe, expect, test } from 'vitest';
import { Agent, createSessions, memoryStore, Tool, TurnHandedOverError } from '../src/index.js';
import { countingChargeModel } from './charging-shop.js';
import { gate } from './gate.js';
import { sharedJournal } from './shared-journal.js';

/** `charge` runs `run` (which the test holds or lets go), noting each attempt's idempotency key. */
function shop(keys: string[], run: (signal: AbortSignal) => Promise<string>) {
  return (
    <Agent>
      <Tool
        name="charge"
        description="Charges the card"
        run={(_input, ctx) => {
          keys.push(ctx.idempotencyKey);
          return run(ctx.signal);
        }}
      />
    </Agent>
  );
}

describe('sessions.close() on a durable engine', () => {
  test('hands the running turn over: the caller hears TurnHandedOverError, nothing more is recorded or committed, and another process finishes it', async () => {
    const journal = sharedJournal();
    const store = memoryStore();
    const keys: string[] = [];
    const asked: string[] = [];
    // The first attempt's tool holds until after the close, then ends: too late to be recorded.
    const started = gate();
    const late = gate<string>();
    const a = journal.process();
    const closing = createSessions(
      shop(keys, () => {
        started.open();
        return late.opened;
      }),
      { store, model: countingChargeModel(asked), engine: a.engine },
    );
    const sending = closing.send('c1', 'Charge me').catch((error: unknown) => error);
    await started.opened;
    await closing.close({ timeout: 0 });
    const error = await sending;
    expect(error).toBeInstanceOf(TurnHandedOverError);
    expect((error as TurnHandedOverError).handedOver).toBe(true);
    const [{ turnId }] = a.runs;
    late.open('charged (too late)');
    await new Promise((resolve) => setImmediate(resolve));
    // The turn's workflow is left pending, as a crash leaves it; the late tool result is not recorded.
    expect(a.runs[0].settled).toBe(false);
    expect(journal.recorded(turnId)).toEqual(['open', 'model-1']);
    // Another process (on the same store and journal) sees the turn running with its lease free, and recovers it.
    const b = journal.process();
    const taking = createSessions(
      shop(keys, async () => 'charged'),
      { store, model: countingChargeModel(asked), engine: b.engine },
    );
    expect((await taking.messages('c1')).map((m) => m.role)).toEqual(['user', 'assistant']);
    expect((await taking.get('c1'))?.running).toEqual({ from: 0 });
    const turn = (await b.recover(turnId)) as { text: string };
    expect(turn.text).toBe('Charged.');
    expect(asked).toEqual(['charge', 'answer']);
    expect(keys).toHaveLength(2);
    expect(keys[1]).toBe(keys[0]);
    const messages = await taking.messages('c1');
    expect(messages.map((m) => m.role)).toEqual(['user', 'assistant', 'tool', 'assistant']);
    expect((await taking.get('c1'))?.running).toBeNull();
    await taking.close();
  });

  test("a user's stop on an engine still stops the turn: it ends as stopped, its workflow ends, nothing is left to recover", async () => {
    const journal = sharedJournal();
    const started = gate();
    const a = journal.process();
    const sessions = createSessions(
      shop([], (signal) => {
        started.open();
        return new Promise<string>((_resolve, reject) =>
          signal.addEventListener('abort', () => reject(signal.reason), { once: true }),
        );
      }),
      { store: memoryStore(), model: countingChargeModel([]), engine: a.engine },
    );
    const sending = sessions.send('c1', 'Charge me').catch((error: unknown) => error);
    await started.opened;
    expect(await sessions.stop('c1')).toBe(true);
    const error = await sending;
    expect(error).not.toBeInstanceOf(TurnHandedOverError);
    await new Promise((resolve) => setImmediate(resolve));
    expect(a.runs[0].settled).toBe(true);
    expect((await sessions.get('c1'))?.running).toBeNull();
    await sessions.close();
  });

  test('a turn that ends before the timeout is not handed over: close() waits for it as without an engine', async () => {
    const journal = sharedJournal();
    const started = gate();
    const release = gate<string>();
    const a = journal.process();
    const sessions = createSessions(
      shop([], () => {
        started.open();
        return release.opened;
      }),
      { store: memoryStore(), model: countingChargeModel([]), engine: a.engine },
    );
    const sending = sessions.send('c1', 'Charge me');
    await started.opened;
    const closed = sessions.close({ timeout: 60_000 });
    release.open('charged');
    expect((await sending).text).toBe('Charged.');
    await closed;
    expect(a.runs[0].settled).toBe(true);
  });
});
