/**
 * Done when (issue 33): against the local servers that enforce Claude's preserved thinking and
 * OpenAI's Responses rules, an agent whose fork and isolated subagents load and unload skills runs
 * with zero refusals. A fork's first request is the parent's latest request (its thinking or
 * reasoning replayed under the same prefix) plus appended messages; an isolated run is a
 * conversation of its own.
 */
import { Agent, createSession, Instructions, type Model, Skill, Subagent, Text, Tool } from '@skilltree/core';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { anthropic } from '../src/anthropic.js';
import { openai } from '../src/openai.js';
import { claudeScript } from './helpers/anthropic-thinking.js';
import { queueRules, Refunds } from './helpers/long-conversation.js';
import { openaiScript } from './helpers/openai-rules.js';
import { serverPerTest } from './helpers/server.js';
import type { WireStep } from './helpers/wire.js';

const server = serverPerTest();

function Desk() {
  return (
    <Agent>
      <Instructions>You run a support desk.</Instructions>
      <Text>Customer: Ada</Text>
      <Tool
        name="lookup"
        description="Look up an order"
        input={z.object({ id: z.string() })}
        run={({ id }) => `order ${id}: paid`}
      />
      <Refunds />
      <Subagent name="checker" description="Check a policy question" context="fork">
        <Instructions>You check one policy question.</Instructions>
        <Tool name="note" description="Note a finding" input={z.object({ text: z.string() })} run={() => 'noted'} />
        <Skill name="policies" description="Company policies">
          <Tool name="policy" description="Read the policy" run={() => 'refunds within 30 days'} />
        </Skill>
      </Subagent>
      <Subagent name="researcher" description="Research an order's history">
        <Agent maxLoadedSkills={1}>
          <Instructions>You research order histories.</Instructions>
          <Skill name="archive" description="Old orders">
            <Tool name="read_archive" description="Read the archive" run={() => 'no earlier refunds'} />
          </Skill>
          <Skill name="ledger" description="Payments">
            <Tool name="read_ledger" description="Read the ledger" run={() => 'paid once'} />
          </Skill>
        </Agent>
      </Subagent>
    </Agent>
  );
}

/**
 * Two turns: a fork that loads a skill, an isolated run whose LRU of one unloads a skill, then a
 * second fork that calls a parent tool it does not offer.
 */
function conversation(
  callId: (n: number) => string,
  restricted: boolean,
): { turns: { user: string; reply: string }[]; steps: WireStep[] } {
  let n = 0;
  const call = (name: string, input: unknown): WireStep => ({ toolCalls: [{ id: callId(++n), name, input }] });
  const read = (skill: string) => call('read_skill', { name: skill });
  const steps: WireStep[] = [
    read('refunds'),
    call('checker', { task: 'May A-1 be refunded under the policy?' }),
    read('policies'),
    call('policy', {}),
    call('note', { text: 'within 30 days' }),
    { text: 'Yes: within 30 days.' },
    call('refund_order', { id: 'A-1' }),
    call('researcher', { task: 'Has A-1 been refunded before?' }),
    read('archive'),
    call('read_archive', {}),
    read('ledger'),
    call('read_ledger', {}),
    { text: 'No earlier refunds; paid once.' },
    { text: 'Refunded A-1.' },
    call('checker', { task: 'Is a second refund allowed?' }),
    // The fork sees the parent's tools and calls one it does not offer: Claude's call is answered with
    // an error naming the run's tools; GPT is never let make it (allowed_tools) and just answers.
    ...(restricted
      ? [{ text: 'No.', toolCalls: [{ id: callId(++n), name: 'refund_order', input: { id: 'A-1' } }] }]
      : [call('refund_order', { id: 'A-1' }), { text: 'No.' }]),
    { text: 'A second refund is not allowed.' },
  ];
  return {
    turns: [
      { user: 'Refund A-1, please.', reply: 'Refunded A-1.' },
      { user: 'Could I get another one?', reply: 'A second refund is not allowed.' },
    ],
    steps,
  };
}

/** The error the second fork's call of the parent's `refund_order` gets. */
const NOT_OFFERED =
  'Tool "refund_order" is not offered in subagent "checker" (a fork sees the parent\'s tools but runs only its own: read_skill, note).';

async function play(model: Model, turns: { user: string; reply: string }[]) {
  const session = createSession(<Desk />, { model });
  try {
    for (const t of turns) expect((await session.send(t.user)).text).toBe(t.reply);
    return session.subagentRuns;
  } finally {
    session.dispose();
  }
}

type WireMessage = { role: string; content: unknown };
const unmarked = (value: unknown) => JSON.stringify(value, (k, v) => (k === 'cache_control' ? undefined : v));

describe('subagents on Claude Opus 5.5 (preserved thinking, mid-conversation system messages)', () => {
  it('fork and isolated runs that load and unload skills: nothing refused', async () => {
    const { turns, steps } = conversation((n) => `toolu_${n}`, false);
    const claude = queueRules(server, claudeScript(steps), steps);
    const adapter = anthropic({ model: 'claude-opus-5-5', apiKey: 'sk-test', baseURL: server.url, maxRetries: 0 });
    const runs = await play(adapter, turns);
    expect(claude.refusals).toEqual([]);
    expect(server.requests).toHaveLength(steps.length);
    expect(runs.map((r) => [r.name, r.context, r.status])).toEqual([
      ['checker', 'fork', 'done'],
      ['researcher', 'isolated', 'done'],
      ['checker', 'fork', 'done'],
    ]);
    // The fork's first request: the parent's latest request, then the run's task and its note.
    const parent = server.requests[1].body;
    const fork = server.requests[2].body;
    expect(unmarked(fork.system)).toBe(unmarked(parent.system));
    expect(unmarked(fork.tools)).toBe(unmarked(parent.tools));
    const before = parent.messages as WireMessage[];
    const after = fork.messages as WireMessage[];
    // Byte for byte (cache marks aside), then one system message: the run's instructions, tools and task.
    expect(unmarked(after.slice(0, before.length))).toBe(unmarked(before));
    expect(after.slice(before.length).map((m) => m.role)).toEqual(['system']);
    expect(JSON.stringify(after.at(-1))).toContain('You check one policy question.');
    expect(JSON.stringify(after.at(-1))).toContain('May A-1 be refunded under the policy?');
    // The parent's tools stay declared: nothing is removed, so the whole parent request is a cached prefix.
    expect(JSON.stringify(after.slice(before.length))).not.toContain('tool_removal');
    // The second fork's call of the parent's refund_order ran nothing: its result is the error, and the run went on.
    expect(JSON.stringify(runs[2].transcript)).toContain(JSON.stringify(NOT_OFFERED).slice(1, -1));
    // The isolated run's first request is its own conversation.
    const isolated = server.requests[8].body;
    expect(JSON.stringify(isolated.system)).toContain('You research order histories.');
    expect(isolated.messages).toHaveLength(1);
  });
});

describe('subagents on GPT-5.6 (Responses, reasoning bound to the prefix)', () => {
  it('fork and isolated runs that load and unload skills: nothing refused, no reasoning dropped', async () => {
    const { turns, steps } = conversation((n) => `call_${n}`, true);
    const gpt = queueRules(server, openaiScript(steps), steps);
    const adapter = openai({ model: 'gpt-5.6', apiKey: 'sk-test', baseURL: `${server.url}/v1`, maxRetries: 0 });
    const runs = await play(adapter, turns);
    expect(gpt.refusals).toEqual([]);
    expect(gpt.droppedReasoning).toBe(0);
    // The second fork's scripted call of the parent's refund_order was never made: allowed_tools excludes it.
    expect(gpt.withheld).toEqual([{ request: 15, name: 'refund_order' }]);
    expect(server.requests).toHaveLength(steps.length);
    expect(runs.every((r) => r.status === 'done')).toBe(true);
    const parent = server.requests[1].body;
    const fork = server.requests[2].body;
    expect(fork.instructions).toBe(parent.instructions);
    expect(unmarked(fork.tools)).toBe(unmarked(parent.tools));
    expect(unmarked(fork.input.slice(0, parent.input.length))).toBe(unmarked(parent.input));
    expect(fork.input.slice(parent.input.length).every((item: { role?: string }) => item.role === 'developer')).toBe(
      true,
    );
    // The tools list is the parent's; what the fork may call is its own, by allowed_tools.
    expect(fork.tool_choice).toEqual({
      type: 'allowed_tools',
      mode: 'auto',
      tools: [
        { type: 'function', name: 'read_skill' },
        { type: 'function', name: 'note' },
      ],
    });
  });
});
