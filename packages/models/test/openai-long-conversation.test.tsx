/**
 * Done when: an agent whose skills load and unload runs 26 turns against GPT-5.6's rules with
 * nothing refused and nothing dropped, using only `openai({ model: 'gpt-5.6' })` defaults. The test
 * server refuses function tools with reasoning on Chat Completions and reasoning replayed by id
 * alone, and counts every reasoning item replayed under a prefix other than the one it was produced
 * under (the API drops those). The conversation has LRU unloads (`maxLoadedSkills` 2), a conditional
 * tool, re-rendered agent instructions and text, and a small window that moves; streamed and not,
 * and through a snapshot restored halfway.
 */
import { describe, expect, it } from 'vitest';
import { openai } from '../src/openai.js';
import { conversation, playTurns, queueRules, STREAMED_OR_NOT, sendTurns } from './helpers/long-conversation.js';
import { canonical, offeredTools, openaiScript } from './helpers/openai-rules.js';
import { type Recorded, serverPerTest } from './helpers/server.js';

const server = serverPerTest();

type Item = { type?: string; role?: string; id?: string; content?: unknown; tools?: { name: string }[] };
const inputOf = (r: Recorded) => r.body.input as Item[];
const same = (a: unknown, b: unknown) => canonical(a) === canonical(b);

describe.each(STREAMED_OR_NOT)('26 turns on GPT-5.6 with only the defaults (%s)', (_name, streamed) => {
  it('loads, LRU unloads, a conditional tool, re-renders and window moves: nothing refused, nothing dropped', async () => {
    const { turns, steps } = conversation((n) => `call_${n}`);
    expect(turns.length).toBeGreaterThanOrEqual(24);
    const gpt = queueRules(server, openaiScript(steps), steps);
    const adapter = openai({ model: 'gpt-5.6', apiKey: 'sk-test', baseURL: `${server.url}/v1`, maxRetries: 0 });
    expect(adapter.appendOnly).toBe(true);
    await playTurns(server, adapter, streamed, turns, (session, starts) => {
      expect(gpt.refusals).toEqual([]);
      expect(gpt.droppedReasoning).toBe(0);
      expect(server.requests).toHaveLength(steps.length);
      expect(server.requests.every((r) => r.url === '/v1/responses')).toBe(true);
      // Every request reasoned, and asked for its reasoning encrypted, statelessly.
      expect(gpt.reasoned).toHaveLength(steps.length);
      for (const r of server.requests) {
        expect(r.body.store).toBe(false);
        expect(r.body.include).toEqual(['reasoning.encrypted_content']);
      }

      // Inside a turn, every request is the previous one plus appended items, its reasoning replayed.
      const requests = server.requests;
      let moves = 0;
      for (let i = 1; i < requests.length; i++) {
        const before = requests[i - 1];
        const after = requests[i];
        const kept = same(inputOf(after).slice(0, inputOf(before).length), inputOf(before));
        const fixed =
          same(after.body.instructions, before.body.instructions) && same(after.body.tools, before.body.tools);
        if (!starts.includes(i)) {
          expect(fixed).toBe(true);
          expect(kept).toBe(true);
          // The model's reply to the previous request goes back with its reasoning first.
          const appended = inputOf(after).slice(inputOf(before).length);
          expect(appended[0]).toMatchObject({ type: 'reasoning', id: expect.stringMatching(/^rs_/) });
        } else if (!(fixed && kept)) moves++;
      }
      // The window moved, only where a turn started.
      expect(moves).toBeGreaterThan(0);

      // What reached the model: loads and re-renders as developer messages, tools added as additional_tools.
      const items = requests.flatMap(inputOf);
      const added = new Set(
        items.filter((i) => i.type === 'additional_tools').flatMap((i) => (i.tools ?? []).map((t) => t.name)),
      );
      for (const name of ['refund_order', 'refund_express', 'send_invoice', 'track']) expect(added).toContain(name);
      const developer = items.filter((i) => i.role === 'developer').map((i) => String(i.content));
      expect(developer.some((t) => t.includes('gold customer'))).toBe(true);
      expect(developer.some((t) => t.includes('called in cycle 1'))).toBe(true);
      expect(developer.some((t) => t.includes('<skill name="billing" unloaded'))).toBe(true);

      // The model is offered what core offers (and, with no way to withdraw a tool, what it offered before).
      const last = requests[requests.length - 1];
      const offered = offeredTools(last.body);
      for (const tool of session.request().tools) expect(offered).toContain(tool.name);
    });
  });
});

describe('the same conversation in the classic layout', () => {
  it('drops reasoning at every prefix change the classic layout makes (the counter measures what matters)', async () => {
    const { turns, steps } = conversation((n) => `call_${n}`);
    const gpt = queueRules(server, openaiScript(steps), steps);
    const model = openai({ model: 'gpt-5.6', apiKey: 'sk-test', baseURL: `${server.url}/v1`, appendOnly: false });
    await sendTurns(model, turns);
    expect(gpt.refusals).toEqual([]);
    expect(gpt.droppedReasoning).toBeGreaterThan(turns.length);
  });
});

describe('the same conversation through a snapshot', () => {
  it('a session restored halfway sends exactly what the first one would have: nothing refused, nothing dropped', async () => {
    const { turns, steps } = conversation((n) => `call_${n}`);
    const model = openai({ model: 'gpt-5.6', apiKey: 'sk-test', baseURL: `${server.url}/v1`, maxRetries: 0 });
    const run = async (restoreAt?: number) => {
      const gpt = queueRules(server, openaiScript(steps), steps);
      const from = server.requests.length;
      await sendTurns(model, turns, restoreAt);
      expect(gpt.refusals).toEqual([]);
      expect(gpt.droppedReasoning).toBe(0);
      // Reasoning ids and encrypted content differ between runs; everything else is the same bytes.
      return server.requests
        .slice(from)
        .map((r) => canonical(inputOf(r).map((i) => (i.type === 'reasoning' ? { type: 'reasoning' } : i))));
    };
    const straight = await run();
    const restored = await run(13);
    expect(restored).toHaveLength(steps.length);
    expect(restored).toEqual(straight);
  });
});
