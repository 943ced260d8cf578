/**
 * A durable turn's input and journal come back from outside the process (the engine's database), so
 * recovery treats them as hostile: a turn recovered after its chat was deleted (and the id started
 * again) is fenced and writes nothing into the new chat; a turn recovered with the same id after it
 * finished writes nothing twice; and a recorded turn whose input names another owner than the
 * chat's is refused, reaching neither owner's data. On the memory store, with the in-memory
 * `journalEngine` (shared-journal.ts) that records each turn's steps and replays a journal (no DBOS needed).
 */
import { describe, expect, test } from 'vitest';
import { createSessions, type Model, memoryStore, SessionConflictError, type Sessions } from '../src/index.js';
import { ChargingShop } from './charging-shop.js';
import { journalEngine } from './shared-journal.js';

const charged: string[] = [];
const Shop = () => <ChargingShop onCharge={(ctx) => charged.push(`${ctx.chat?.owner ?? '-'}:${ctx.chat?.id}`)} />;

let asked = 0;
/** Charges, then answers with what the user said: any process answers alike. */
const model = (): Model => ({
  async generate(request) {
    asked++;
    const last = request.messages.at(-1);
    if (last?.role === 'tool') return { text: 'Charged.', toolCalls: [] };
    return { text: '', toolCalls: [{ id: 'pay-1', name: 'charge', input: {} }] };
  },
});

async function roles(sessions: Sessions, id: string, owner?: string) {
  return (await sessions.messages(id, owner ? { owner } : {})).map((m) => m.role);
}

/** A turn of `owner` in chat c1 on a journal engine: the sessions, the engine and the turn's journal. */
async function recordedTurn(owner?: string) {
  const store = memoryStore();
  const first = journalEngine();
  const sessions = createSessions(<Shop />, { store, model, engine: first.engine });
  await sessions.send('c1', 'Charge me', owner ? { owner } : {});
  const journal = first.recorded();
  expect(journal.map((s) => s.name)).toEqual(['open', 'model-1', 'tool-charge-pay-1', 'model-2']);
  // Another process, on the same store, to recover from.
  const second = journalEngine();
  const other = createSessions(<Shop />, { store, model, engine: second.engine });
  /** Recovers the turn in the other process as if its input named `owner`, replaying `steps` (by default up to its first model call, as if its process died there). */
  const recoverAs = (owner: string | null, steps = journal.slice(0, 2)) =>
    second.recover('turn-1', { id: 'c1', owner, input: 'Charge me' }, steps);
  /** Closes both processes' sessions. */
  const close = async () => {
    await sessions.close();
    await other.close();
  };
  return { store, sessions, other, journal, recoverAs, close };
}

/** Forgets what ran so far (charges, model calls), so a test sees only what its recovery ran. */
function forgetRuns() {
  charged.length = 0;
  asked = 0;
}

/** Nothing was charged and the model was not asked since {@link forgetRuns}. */
function expectNothingRan() {
  expect(charged).toEqual([]);
  expect(asked).toBe(0);
}

describe('a durable turn recovered after its chat was deleted is fenced', () => {
  test('the old turn, recovered after the chat was deleted and started again under its id, writes nothing into the new chat', async () => {
    const { sessions, other, recoverAs, close } = await recordedTurn('alice');
    await sessions.delete('c1', { owner: 'alice' });
    await sessions.send('c1', 'A new start', { owner: 'alice' });
    const now = await sessions.messages('c1', { owner: 'alice' });
    forgetRuns();
    // Recovered as if its process had died after its first model call.
    const recovering = recoverAs('alice');
    await expect(recovering).rejects.toBeInstanceOf(SessionConflictError);
    await expect(recovering).rejects.toThrow(/the chat was deleted or taken over while this turn ran/);
    expect(await other.messages('c1', { owner: 'alice' })).toEqual(now);
    expectNothingRan();
    await close();
  });

  test('recovered after its chat was deleted and not started again, it is fenced and makes no chat', async () => {
    const { sessions, other, recoverAs, close } = await recordedTurn('alice');
    await sessions.delete('c1', { owner: 'alice' });
    charged.length = 0;
    const recovering = recoverAs('alice');
    await expect(recovering).rejects.toBeInstanceOf(SessionConflictError);
    expect(await other.get('c1', { owner: 'alice' })).toBeNull();
    expect(charged).toEqual([]);
    await close();
  });

  test('a finished turn run again under its id with its whole journal writes nothing twice and runs nothing', async () => {
    const { sessions, other, journal, recoverAs, close } = await recordedTurn('alice');
    const before = await sessions.messages('c1', { owner: 'alice' });
    forgetRuns();
    await recoverAs('alice', journal);
    expect(await other.messages('c1', { owner: 'alice' })).toEqual(before);
    expectNothingRan();
    await close();
  });
});

describe("a recorded turn whose input names another owner than the chat's is refused", () => {
  test("alice's turn recovered as mallory's: refused, and mallory gets no chat and nothing of alice's", async () => {
    const { sessions, other, recoverAs, close } = await recordedTurn('alice');
    const alice = await sessions.messages('c1', { owner: 'alice' });
    forgetRuns();
    const recovering = recoverAs('mallory');
    await expect(recovering).rejects.toBeInstanceOf(SessionConflictError);
    expect(await other.get('c1', { owner: 'mallory' })).toBeNull();
    expect(await roles(other, 'c1', 'mallory')).toEqual([]);
    expect(await other.messages('c1', { owner: 'alice' })).toEqual(alice);
    expectNothingRan();
    await close();
  });

  test("mallory's own chat of the same id is not written by alice's recovered turn", async () => {
    const { sessions, other, recoverAs, close } = await recordedTurn('alice');
    await sessions.send('c1', 'My own', { owner: 'mallory' });
    const mallory = await sessions.messages('c1', { owner: 'mallory' });
    const recovering = recoverAs('mallory');
    await expect(recovering).rejects.toBeInstanceOf(SessionConflictError);
    const after = await other.messages('c1', { owner: 'mallory' });
    expect(after).toEqual(mallory);
    expect(JSON.stringify(after)).not.toContain('Charge me');
    await close();
  });

  test("an owned chat's turn recovered as unowned, or an unowned chat's as owned: refused", async () => {
    const owned = await recordedTurn('alice');
    await expect(owned.recoverAs(null)).rejects.toBeInstanceOf(SessionConflictError);
    expect(await owned.other.get('c1')).toBeNull();
    const unowned = await recordedTurn();
    await expect(unowned.recoverAs('alice')).rejects.toBeInstanceOf(SessionConflictError);
    expect(await unowned.other.get('c1', { owner: 'alice' })).toBeNull();
    for (const s of [owned.sessions, owned.other, unowned.sessions, unowned.other]) await s.close();
  });

  test('an owner that is not well-formed text is refused with an error naming it, before anything is read', async () => {
    const { other, recoverAs, close } = await recordedTurn('alice');
    for (const owner of ['ali\u0000ce', '\ud800', 42 as unknown as string]) {
      await expect(recoverAs(owner)).rejects.toThrow(/^Invalid owner/);
    }
    // Well-formed but not the chat's: another owner, refused as above.
    await expect(recoverAs('x'.repeat(10_000))).rejects.toBeInstanceOf(SessionConflictError);
    expect(await other.messages('c1', { owner: 'alice' })).toHaveLength(4);
    await close();
  });
});

describe("a model's hostile output under an engine", () => {
  test('a tool call nested 10,000 levels deep is recorded as its placeholder: the journal serializes and the turn goes on', async () => {
    let deep: unknown = 'bottom';
    for (let i = 0; i < 10_000; i++) deep = { a: deep };
    let calls = 0;
    const hostile = (): Model => ({
      async generate() {
        calls++;
        return calls === 1
          ? { text: '', toolCalls: [{ id: 'deep-1', name: 'charge', input: deep }] }
          : { text: 'Done.', toolCalls: [] };
      },
    });
    const first = journalEngine();
    const sessions = createSessions(<Shop />, { store: memoryStore(), model: hostile, engine: first.engine });
    const turn = await sessions.send('c1', 'Charge me');
    expect(turn.text).toBe('Done.');
    const journal = first.recorded();
    expect(() => JSON.stringify(journal)).not.toThrow();
    const messages = await sessions.messages('c1');
    expect(messages.map((m) => m.role)).toEqual(['user', 'assistant', 'tool', 'assistant']);
    expect(messages[2]).toMatchObject({ role: 'tool', isError: true });
    await sessions.close();
  });
});
