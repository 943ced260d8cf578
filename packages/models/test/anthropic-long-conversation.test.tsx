/**
 * Done when: an agent whose skills load and unload runs 26 turns against Claude Opus 5.5's rules
 * with nothing refused, using only `anthropic({ model: 'claude-opus-5-5' })` defaults. The test
 * server signs every thinking block over the exact prefix before it and refuses any change, refuses
 * a tool-use turn that does not start with its thinking, and enforces the placement of
 * mid-conversation system messages and tool changes. The conversation has LRU unloads
 * (`maxLoadedSkills` 2), a conditional tool, re-rendered agent instructions and text, and a small
 * window that moves; streamed and not.
 */
import { describe, expect, it } from 'vitest';
import { anthropic } from '../src/anthropic.js';
import { claudeScript } from './helpers/anthropic-thinking.js';
import { conversation, playTurns, queueRules, STREAMED_OR_NOT, sendTurns } from './helpers/long-conversation.js';
import { type Recorded, serverPerTest } from './helpers/server.js';

const server = serverPerTest();

type Block = { type: string; text?: string; tool?: { name?: string; definition?: { name: string } } };
type WireMessage = { role: string; content: Block[] };
const unmarked = (value: unknown) => JSON.stringify(value, (k, v) => (k === 'cache_control' ? undefined : v));
const messagesOf = (r: Recorded) => r.body.messages as WireMessage[];

/** The tools a request offers at its end: `tools`, then each system message's removals and additions in order. */
function offered(r: Recorded): string[] {
  const names = new Set<string>((r.body.tools ?? []).map((t: { name: string }) => t.name));
  for (const m of messagesOf(r)) {
    if (m.role !== 'system') continue;
    for (const b of m.content) {
      if (b.type === 'tool_removal') names.delete(String(b.tool?.name));
      if (b.type === 'tool_addition') names.add(String(b.tool?.definition?.name ?? b.tool?.name));
    }
  }
  return [...names].sort();
}

describe.each(STREAMED_OR_NOT)('26 turns on Claude Opus 5.5 with only the defaults (%s)', (_name, streamed) => {
  it('loads, LRU unloads, a conditional tool, re-renders and window moves: nothing refused', async () => {
    const { turns, steps } = conversation((n) => `toolu_${n}`);
    expect(turns.length).toBeGreaterThanOrEqual(24);
    const claude = queueRules(server, claudeScript(steps), steps);
    const adapter = anthropic({ model: 'claude-opus-5-5', apiKey: 'sk-test', baseURL: server.url, maxRetries: 0 });
    expect(adapter.appendOnly).toBe(true);
    await playTurns(server, adapter, streamed, turns, (session, starts) => {
      expect(claude.refusals).toEqual([]);
      expect(server.requests).toHaveLength(steps.length);

      // Inside a turn, every request is the previous one plus appended messages.
      const requests = server.requests;
      let moves = 0;
      for (let i = 1; i < requests.length; i++) {
        const before = requests[i - 1];
        const after = requests[i];
        const sameStart = unmarked(messagesOf(after)[0]) === unmarked(messagesOf(before)[0]);
        if (!starts.includes(i)) {
          expect(unmarked(after.body.system)).toBe(unmarked(before.body.system));
          expect(unmarked(after.body.tools)).toBe(unmarked(before.body.tools));
          const prefix = messagesOf(before).slice(0, -1);
          expect(unmarked(messagesOf(after).slice(0, prefix.length))).toBe(unmarked(prefix));
          // The model's reply to the previous request goes back with its thinking first.
          const appended = messagesOf(after)
            .slice(prefix.length)
            .filter((m) => m.role === 'assistant');
          expect(appended).toHaveLength(1);
          expect(['thinking', 'redacted_thinking']).toContain(appended[0].content[0].type);
        } else if (!sameStart) moves++;
      }
      // The window moved, only where a turn started.
      expect(moves).toBeGreaterThan(0);

      // What reached the model: loads and LRU unloads, the conditional tool, the re-rendered instructions.
      const all = requests.flatMap(messagesOf).filter((m) => m.role === 'system');
      const blocks = all.flatMap((m) => m.content);
      const changes = new Set(
        blocks.filter((b) => b.type !== 'text').map((b) => `${b.type} ${b.tool?.definition?.name ?? b.tool?.name}`),
      );
      for (const change of [
        'tool_addition refund_order',
        'tool_removal refund_order',
        'tool_addition refund_express',
        'tool_removal refund_express',
        'tool_addition send_invoice',
        'tool_removal send_invoice',
        'tool_addition track',
      ]) {
        expect(changes).toContain(change);
      }
      expect(blocks.some((b) => b.type === 'text' && b.text?.includes('gold customer'))).toBe(true);
      expect(blocks.some((b) => b.type === 'text' && b.text?.includes('called in cycle 1'))).toBe(true);

      // The model is offered exactly what core offers.
      const last = requests[requests.length - 1];
      expect(offered(last)).toEqual(
        session
          .request()
          .tools.map((t) => t.name)
          .sort(),
      );
    });
  });
});

describe('the same conversation through a snapshot', () => {
  it('a session restored halfway sends exactly what the first one would have: nothing refused', async () => {
    const { turns, steps } = conversation((n) => `toolu_${n}`);
    const model = anthropic({ model: 'claude-opus-5-5', apiKey: 'sk-test', baseURL: server.url, maxRetries: 0 });
    const run = async (restoreAt?: number) => {
      const claude = queueRules(server, claudeScript(steps), steps);
      const from = server.requests.length;
      await sendTurns(model, turns, restoreAt);
      expect(claude.refusals).toEqual([]);
      return server.requests.slice(from).map((r) => r.raw);
    };
    const straight = await run();
    const restored = await run(13);
    expect(restored).toHaveLength(steps.length);
    expect(restored).toEqual(straight);
  });
});
