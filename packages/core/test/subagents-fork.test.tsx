/**
 * SPEC §19, forks and what a spawn costs: a fork's first request is the parent's latest request byte
 * for byte, then appended messages carrying the run's instructions, catalog, tools and task; what
 * that request costs is known before it is sent (`onSpawn`). A fork on a model outside the
 * append-only table is reported when the session is made.
 */
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  Agent,
  createSession,
  Instructions,
  Skill,
  type SpawnInfo,
  Subagent,
  scriptedModel,
  Text,
  Tool,
} from '../src/index.js';
import type { SystemNote } from '../src/provider.js';

function App({ context }: { context: 'fork' | 'isolated' }) {
  return (
    <Agent>
      <Instructions>You are a support agent.</Instructions>
      <Text>Customer: Ada</Text>
      <Tool
        name="lookup"
        description="Look up an order"
        input={z.object({ id: z.string() })}
        run={({ id }) => `order ${id}`}
      />
      <Skill name="refunds" description="Refund orders">
        <Tool name="refund" description="Refund" run={() => 'refunded'} />
      </Skill>
      <Subagent name="helper" description="Help with a part of the task" context={context}>
        <Instructions>You check one detail.</Instructions>
        <Tool name="check" description="Check a detail" run={() => 'checked'} />
        <Skill name="policies" description="Company policies">
          <Tool name="policy" description="Read a policy" run={() => 'policy'} />
        </Skill>
      </Subagent>
    </Agent>
  );
}

const parentSteps = [
  { reasoning: 'I should look it up first.', toolCalls: [{ name: 'lookup', input: { id: 'A-1' } }] },
  { reasoning: 'Now delegate.', toolCalls: [{ name: 'helper', input: { task: 'check the refund policy for A-1' } }] },
  { text: 'All checked.' },
];

/** A forked `helper` run that reads the policies skill, calls `policy` and answers `result`: the scripted model, after one turn. */
async function forkReadingPolicy(result: string) {
  const model = scriptedModel(parentSteps, {
    appendOnly: true,
    subagents: {
      helper: [
        { toolCalls: [{ name: 'read_skill', input: { name: 'policies' } }] },
        { toolCalls: [{ name: 'policy', input: {} }] },
        { text: result },
      ],
    },
  });
  const session = createSession(<App context="fork" />, { model });
  await session.send('Can A-1 be refunded?');
  return { model, session };
}

describe('a fork', () => {
  it("a fork's first request is the parent's latest request byte for byte, followed by appended messages", async () => {
    const { model, session } = await forkReadingPolicy('refunds within 30 days');
    const parent = model.requests.filter((r) => !r.subagent);
    const runs = model.requests.filter((r) => r.subagent);
    const latest = parent[1].appendOnly!;
    const first = runs[0].appendOnly!;
    // System, tools and every item (reasoning blocks included) as the parent sent them.
    expect(JSON.stringify(first.system)).toBe(JSON.stringify(latest.system));
    expect(JSON.stringify(first.tools)).toBe(JSON.stringify(latest.tools));
    expect(JSON.stringify(first.items.slice(0, latest.items.length))).toBe(JSON.stringify(latest.items));
    expect(JSON.stringify(latest.items)).toContain('I should look it up first.');
    // Then one appended note: the run's instructions and catalog, its tools, and its task (a user
    // message there would join the parent's last user turn on the wire and change its bytes).
    const [note, ...more] = first.items.slice(latest.items.length) as SystemNote[];
    expect(more.every((item) => item.role === 'system')).toBe(true);
    expect(note.role).toBe('system');
    expect(note.text).toContain('You check one detail.');
    expect(note.text).toContain('policies');
    expect(note.text).toContain('<task>\ncheck the refund policy for A-1\n</task>');
    expect(note.addedTools.map((t) => t.name)).toEqual(['check']);
    // The parent's tools stay declared (no removals); the note says which tools the run may call.
    expect(note.removedTools).toEqual([]);
    expect(note.text).toContain('You may call only these tools: read_skill, check');
    // The run's own transcript still starts with its task, as a user message.
    expect(session.subagentRuns[0].transcript[0]).toMatchObject({ role: 'user' });
  });

  it("a fork keeps the parent's tools in its request and runs only its own", async () => {
    const model = scriptedModel(parentSteps, {
      appendOnly: true,
      subagents: {
        helper: [{ toolCalls: [{ name: 'lookup', input: { id: 'A-1' } }] }, { text: 'checked without lookup' }],
      },
    });
    const session = createSession(<App context="fork" />, { model });
    await session.send('Can A-1 be refunded?');
    const parent = model.requests.filter((r) => !r.subagent);
    const runs = model.requests.filter((r) => r.subagent);
    // Every request of the run declares the parent's tools, and removes none of them.
    for (const request of runs) {
      expect(JSON.stringify(request.appendOnly!.tools)).toBe(JSON.stringify(parent[1].appendOnly!.tools));
      const notes = request.appendOnly!.items.filter((item) => item.role === 'system') as SystemNote[];
      expect(notes.flatMap((n) => n.removedTools)).toEqual([]);
      // What it may call (OpenAI's allowed_tools is made from this): the run's own tools only.
      expect(request.tools.map((t) => t.name)).toEqual(['read_skill', 'check']);
    }
    // Its call of the parent's `lookup` is answered with an error naming the tool, the run and its tools...
    const run = session.subagentRuns[0];
    const result = run.transcript.find((m) => m.role === 'tool');
    expect(JSON.stringify(result)).toContain(
      'Tool \\"lookup\\" is not offered in subagent \\"helper\\" (a fork sees the parent\'s tools but runs only its own: read_skill, check).',
    );
    // ...and the run goes on to its result.
    expect(run.status).toBe('done');
    expect(run.result).toBe('checked without lookup');
    expect(session.transcript.at(-1)).toMatchObject({ role: 'assistant' });
  });

  it("every later request of the run is its previous request plus appended items (the prefix stays the parent's)", async () => {
    const { model } = await forkReadingPolicy('ok');
    const runs = model.requests.filter((r) => r.subagent).map((r) => r.appendOnly!);
    for (let i = 1; i < runs.length; i++) {
      expect(JSON.stringify(runs[i].system)).toBe(JSON.stringify(runs[0].system));
      expect(JSON.stringify(runs[i].tools)).toBe(JSON.stringify(runs[0].tools));
      expect(JSON.stringify(runs[i].items.slice(0, runs[i - 1].items.length))).toBe(JSON.stringify(runs[i - 1].items));
    }
    // The skill the run loaded came as an appended note with its tool.
    const added = runs[2].items.flatMap((item) => (item.role === 'system' ? item.addedTools.map((t) => t.name) : []));
    expect(added).toContain('policy');
  });

  it("an isolated run's first request carries only its own system prompt, tools and task", async () => {
    const model = scriptedModel(parentSteps, { appendOnly: true, subagents: { helper: [{ text: 'ok' }] } });
    const session = createSession(<App context="isolated" />, { model });
    await session.send('Can A-1 be refunded?');
    const run = model.requests.find((r) => r.subagent)!;
    expect(run.appendOnly?.system).toContain('You check one detail.');
    expect(run.appendOnly?.system).not.toContain('support agent');
    expect(run.messages).toHaveLength(1);
    expect(JSON.stringify(run)).not.toContain('Can A-1 be refunded?');
  });

  it('a fork on a model outside the append-only table is reported when the session is made', () => {
    const session = createSession(<App context="fork" />, { model: scriptedModel([]) });
    expect(session.warnings.map((w) => w.message).join('\n')).toMatch(
      /Subagent "helper" has context="fork", but model "scripted" is outside the append-only table/,
    );
    const isolated = createSession(<App context="isolated" />, { model: scriptedModel([]) });
    expect(isolated.warnings).toEqual([]);
    const appendOnly = createSession(<App context="fork" />, { model: scriptedModel([], { appendOnly: true }) });
    expect(appendOnly.warnings).toEqual([]);
  });

  it("a fork on such a model still reads the parent's conversation, under its own system prompt", async () => {
    const model = scriptedModel(parentSteps, { subagents: { helper: [{ text: 'ok' }] } });
    const session = createSession(<App context="fork" />, { model });
    await session.send('Can A-1 be refunded?');
    const run = model.requests.find((r) => r.subagent)!;
    expect(run.system).toContain('You check one detail.');
    expect(JSON.stringify(run.messages)).toContain('Can A-1 be refunded?');
    expect(run.appendOnly).toBeUndefined();
  });
});

describe('what a spawn costs, before it is sent', () => {
  it('onSpawn receives the first request’s tokens; a fork inherits the parent’s latest request, all of it cached', async () => {
    const seen: SpawnInfo[] = [];
    const model = scriptedModel(parentSteps, { appendOnly: true, subagents: { helper: [{ text: 'ok' }] } });
    const session = createSession(<App context="fork" />, { model, onSpawn: (info) => seen.push(info) });
    await session.send('Can A-1 be refunded?');
    expect(seen).toHaveLength(1);
    const [{ name, toolCallId, cost }] = seen;
    expect(name).toBe('helper');
    expect(toolCallId).toBe(session.subagentRuns[0].toolCallId);
    expect(cost.inheritedTokens).toBeGreaterThan(0);
    expect(cost.cachedTokens).toBe(cost.inheritedTokens);
    expect(cost.inputTokens).toBeGreaterThan(cost.inheritedTokens);
    expect(session.subagentRuns[0].spawn).toEqual(cost);
    // Reported before the request was sent: the scripted model had not seen it yet.
    expect(model.requests.filter((r) => r.subagent)).toHaveLength(1);
  });

  it('an isolated spawn inherits nothing; a <Subagent onSpawn> is called too', async () => {
    const seen: SpawnInfo[] = [];
    let requestsAtSpawn = -1;
    const model = scriptedModel(parentSteps, { appendOnly: true, subagents: { helper: [{ text: 'ok' }] } });
    const session = createSession(
      <Agent>
        <Tool name="lookup" description="Look up" input={z.object({ id: z.string() })} run={() => 'x'} />
        <Subagent
          name="helper"
          description="Help"
          onSpawn={(info) => {
            requestsAtSpawn = model.requests.length;
            seen.push(info);
          }}
        >
          <Instructions>Help.</Instructions>
        </Subagent>
      </Agent>,
      { model },
    );
    await session.send('go');
    expect(seen[0].cost).toMatchObject({ inheritedTokens: 0, cachedTokens: 0 });
    expect(seen[0].cost.inputTokens).toBeGreaterThan(0);
    // Called before the run's request reached the model.
    expect(model.requests[requestsAtSpawn - 1]?.subagent).toBeUndefined();
  });
});
