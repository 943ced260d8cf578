/**
 * Recovery as core does it, in one process: a turn's recorded steps replayed through a freshly
 * mounted tree. The tree comes out as it was (the loaded skill), the recorded model call is not
 * asked again, what the store has is not written twice, and a tree that renders another request
 * than the recorded one stops the turn with a `DurableReplayError` before anything runs.
 */
import { describe, expect, test } from 'vitest';
import { Agent, createSessions, DurableReplayError, type Model, memoryStore, Skill, Text, Tool } from '../src/index.js';
import { diedMidTurn, journalEngine } from './shared-journal.js';

function Shop({ prompt = 'You charge cards.' }: { prompt?: string }) {
  return (
    <Agent>
      <Text>{prompt}</Text>
      <Skill name="billing" description="Charging cards">
        <Text>Charge in cents.</Text>
        <Tool name="charge" description="Charges the card" run={() => 'charged'} />
      </Skill>
    </Agent>
  );
}

let asked = 0;
/** Reads the skill, then charges, then answers: each step decided by the request, so any process answers alike. */
const model = (): Model => ({
  async generate(request) {
    asked++;
    const last = request.messages.at(-1);
    if (last?.role === 'tool' && last.name === 'charge') return { text: 'Charged.', toolCalls: [] };
    if (last?.role === 'tool') return { text: '', toolCalls: [{ id: 'pay-1', name: 'charge', input: {} }] };
    return { text: '', toolCalls: [{ id: 'r1', name: 'read_skill', input: { name: 'billing' } }] };
  },
});

describe('a recovered turn replays its recorded steps through a fresh tree', () => {
  test('the loaded skill comes back, recorded model calls are not asked again, and nothing is written twice', async () => {
    const store = memoryStore();
    const first = journalEngine();
    const sessions = createSessions(<Shop />, { store, model, engine: first.engine });
    asked = 0;
    await sessions.send('c1', 'Charge me');
    expect(asked).toBe(3);
    const journal = first.recorded();
    expect(journal.map((s) => s.name)).toEqual(['open', 'model-1', 'model-2', 'tool-charge-pay-1', 'model-3']);
    const before = await sessions.messages('c1');
    // Another process recovers the turn as if it had died before its last model call.
    const second = journalEngine();
    const other = createSessions(<Shop />, { store, model, engine: second.engine });
    asked = 0;
    await diedMidTurn(store, 'c1');
    const turn = (await second.recover('t', { id: 'c1', owner: null, input: 'Charge me' }, journal.slice(0, 4))) as {
      text: string;
    };
    expect(turn.text).toBe('Charged.');
    // Only the call that was not recorded was asked.
    expect(asked).toBe(1);
    expect(await other.messages('c1')).toEqual(before);
    expect((await other.get('c1'))?.loadedSkills).toEqual(['billing']);
    await sessions.close();
    await other.close();
  });

  test('a tree that renders another request than the recorded one stops with DurableReplayError, and nothing runs', async () => {
    const store = memoryStore();
    const first = journalEngine();
    const sessions = createSessions(<Shop />, { store, model, engine: first.engine });
    await sessions.send('c1', 'Charge me');
    const journal = first.recorded();
    const before = await sessions.messages('c1');
    const second = journalEngine();
    const changed = createSessions(<Shop prompt="You charge cards, politely." />, {
      store,
      model,
      engine: second.engine,
    });
    asked = 0;
    const recovering = second.recover('t', { id: 'c1', owner: null, input: 'Charge me' }, journal.slice(0, 2));
    await expect(recovering).rejects.toThrow(DurableReplayError);
    await expect(recovering).rejects.toThrow(/chat "c1" does not replay as recorded.*step model-1/);
    expect(asked).toBe(0);
    expect(await changed.messages('c1')).toEqual(before);
    await sessions.close();
    await changed.close();
  });
});
