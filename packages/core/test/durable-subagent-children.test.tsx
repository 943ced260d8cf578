/**
 * SPEC §19 + §21, subagent runs of a durable turn on an engine with child workflows
 * (`TurnEngine.child`, as DBOS and Restate have): each run opens its own child workflow when its
 * round opens, in call order, and records its model calls and tool runs there; the turn's journal
 * keeps only its own steps and the openings. A recovered turn replays each run from its child and
 * asks only what the child did not record.
 */
import { describe, expect, test } from 'vitest';
import { createSessions, type Model, memoryStore } from '../src/index.js';
import { journalEngine } from './shared-journal.js';
import { asked, firstTurn, keys, recoverFrom, Shop } from './subagent-shop.js';

describe('subagent runs are child workflows of their durable turn', () => {
  test("each run opens its child workflow in call order when its round opens; the run's steps are recorded there, the turn keeps its own", async () => {
    const { journal, children } = await firstTurn(2, 20, true);
    expect(journal.map((s) => s.name)).toEqual([
      'open',
      'model-1',
      'child:sub/bill-1',
      'child:sub/bill-2',
      'tool-billing-bill-1',
      'tool-refunds-bill-2',
      'model-2',
    ]);
    expect(Object.keys(children)).toEqual(['sub/bill-1', 'sub/bill-2']);
    expect(children['sub/bill-1']?.map((s) => s.name)).toEqual([
      'sub/bill-1/model-1',
      'sub/bill-1/tool-charge-pay-1',
      'sub/bill-1/model-2',
      'sub/bill-1/tool-charge-pay-2',
      'sub/bill-1/model-3',
    ]);
    expect(children['sub/bill-2']?.map((s) => s.name)).toEqual([
      'sub/bill-2/model-1',
      'sub/bill-2/tool-charge-pay-1',
      'sub/bill-2/model-2',
      'sub/bill-2/tool-charge-pay-2',
      'sub/bill-2/model-3',
    ]);
  });

  test('a turn recovered mid-run replays each run from its child workflow: only what a child did not record is asked or run', async () => {
    const { store, journal, children } = await firstTurn(2, 0, true);
    const before = [...keys];
    // The process died while the second run's second charge ran: the first run had ended.
    const cutTurn = journal.findIndex((s) => s.name === 'child:sub/bill-2') + 1;
    const second = children['sub/bill-2'] ?? [];
    const cut = second.findIndex((s) => s.name === 'sub/bill-2/model-2') + 1;
    const {
      other,
      turn,
      children: after,
    } = await recoverFrom(store, 2, journal.slice(0, cutTurn), 0, {
      'sub/bill-1': children['sub/bill-1'] ?? [],
      'sub/bill-2': second.slice(0, cut),
    });
    expect((turn as { text: string }).text).toBe('Done.');
    expect(asked).toEqual(['refunds 3', 'parent 2']);
    // The unrecorded charge ran again with the key of its first attempt; nothing else ran.
    expect(keys).toEqual([before.find((k) => k.endsWith('/bill-2/pay-2'))]);
    expect(after['sub/bill-2']?.map((s) => s.name)).toEqual(children['sub/bill-2']?.map((s) => s.name));
    const runs = await other.subagentRuns('c1');
    expect(runs.map((r) => [r.toolCallId, r.status])).toEqual([
      ['bill-1', 'done'],
      ['bill-2', 'done'],
    ]);
    await other.close();
  });

  test("a model's hostile call ids never shape a child's id: a path (`a/sub/b`), a repeated id and an empty one each get a child of their own, under the turn", async () => {
    const hostile: Model = {
      name: 'hostile',
      async generate(request) {
        if (request.messages.at(-1)?.role === 'tool') return { text: 'Done.', toolCalls: [] };
        return {
          text: '',
          toolCalls: [
            { id: 'a/sub/b', name: 'billing', input: { task: 'Charge 1.' } },
            { id: 'dup', name: 'billing', input: { task: 'Charge 2.' } },
            { id: 'dup', name: 'refunds', input: { task: 'Refund 3.' } },
            { id: '', name: 'billing', input: { task: 'Charge 4.' } },
          ],
        };
      },
    };
    const engine = journalEngine({ numbered: true, children: true });
    const sessions = createSessions(<Shop />, { store: memoryStore(), model: hostile, engine: engine.engine });
    await sessions.send('c1', 'Charge me');
    await sessions.close();
    const ids = Object.keys(engine.children());
    expect(ids).toHaveLength(4);
    expect(new Set(ids).size).toBe(4);
    // Each is one safe segment under `sub/`: no run's child nests in another's or leaves its turn.
    for (const id of ids) expect(id).toMatch(/^sub\/[A-Za-z0-9_-]{1,64}$/);
    expect(ids).toContain('sub/dup');
    expect(ids.some((id) => id.includes('a/sub/b'))).toBe(false);
  });
});
