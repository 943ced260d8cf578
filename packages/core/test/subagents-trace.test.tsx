/**
 * SPEC §19, traces: a run is traced as `invoke_agent {name}` under the parent's `execute_tool {name}`
 * span, with what its spawn cost before it was sent.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { createSession, scriptedModel, Tool } from '../src/index.js';
import { Researcher, stepTogether, WaitTool } from './researcher.js';
import { shutDownTracing, tracing } from './tracing.js';

afterEach(shutDownTracing);

describe('spans', () => {
  it('a run is traced as invoke_agent {name} under the parent’s execute_tool {name} span, with its spawn cost', async () => {
    const t = tracing();
    const model = scriptedModel([{ toolCalls: [{ name: 'researcher', input: { task: 'look' } }] }, { text: 'done' }], {
      subagents: { researcher: [{ toolCalls: [{ name: 'read_record', input: {} }] }, { text: 'found' }] },
    });
    const session = createSession(
      <Researcher>
        <Tool name="read_record" description="Read" run={() => 'record'} />
      </Researcher>,
      { model, telemetry: { tracer: t.tracer, agentName: 'support' } },
    );
    await session.send('go');
    const spans = t.exporter.getFinishedSpans();
    const byName = (name: string) => spans.filter((s) => s.name === name);
    const [tool] = byName('execute_tool researcher');
    const [run] = byName('invoke_agent researcher');
    expect(tool).toBeDefined();
    expect(run).toBeDefined();
    expect(run.parentSpanContext?.spanId).toBe(tool.spanContext().spanId);
    expect(run.spanContext().traceId).toBe(byName('invoke_agent support')[0].spanContext().traceId);
    // The run's own model and tool calls nest under its span.
    const [inner] = byName('execute_tool read_record');
    expect(inner.parentSpanContext?.spanId).toBe(run.spanContext().spanId);
    expect(run.attributes['skilltree.subagent.spawn.input_tokens']).toBeGreaterThan(0);
    expect(run.attributes['skilltree.subagent.spawn.inherited_tokens']).toBe(0);
    expect(run.attributes['gen_ai.conversation.id']).toBe(
      byName('invoke_agent support')[0].attributes['gen_ai.conversation.id'],
    );
  });

  it('concurrent subagent runs each nest under their own execute_tool span', async () => {
    const t = tracing();
    // Each run's first step waits until both runs have started: both are in flight at once.
    const { started, step } = stepTogether((task) => ({ toolCalls: [{ name: 'read_record', input: { task } }] }));
    const two = { toolCalls: ['part 0', 'part 1'].map((task) => ({ name: 'researcher', input: { task } })) };
    const model = scriptedModel([two, { text: 'all done' }], {
      subagents: { researcher: [step, step, { text: 'found' }, { text: 'found' }] },
    });
    const session = createSession(
      <Researcher>
        <Tool name="read_record" description="Read" run={() => 'record'} />
      </Researcher>,
      { model, subagentConcurrency: 2, telemetry: { tracer: t.tracer, agentName: 'support', recordContent: true } },
    );
    await session.send('go');
    expect(started.sort()).toEqual(['part 0', 'part 1']);
    const spans = t.exporter.getFinishedSpans();
    const byName = (name: string) => spans.filter((s) => s.name === name);
    const [turn] = byName('invoke_agent support');
    const tools = byName('execute_tool researcher');
    const runs = byName('invoke_agent researcher');
    expect(tools).toHaveLength(2);
    expect(runs).toHaveLength(2);
    // Both calls' spans are the turn's children, side by side, one per call.
    for (const tool of tools) expect(tool.parentSpanContext?.spanId).toBe(turn.spanContext().spanId);
    for (const task of ['part 0', 'part 1']) {
      const tool = tools.find((s) => String(s.attributes['gen_ai.tool.call.arguments']).includes(task));
      const run = runs.find((s) => String(s.attributes['gen_ai.input.messages']).includes(task));
      expect(tool).toBeDefined();
      expect(run).toBeDefined();
      // The run nests under its own call's span, not under the other call's or the turn's.
      expect(run?.parentSpanContext?.spanId).toBe(tool?.spanContext().spanId);
      // The call's span is open for the whole run: it starts before and ends after it.
      if (!tool || !run) continue;
      expect(t.order.started(tool)).toBeLessThan(t.order.started(run));
      expect(t.order.ended(tool)).toBeGreaterThan(t.order.ended(run));
      // The run's own tool call nests under the run's span.
      const inner = byName('execute_tool read_record').filter(
        (s) => s.parentSpanContext?.spanId === run.spanContext().spanId,
      );
      expect(inner).toHaveLength(1);
    }
  });

  it('an aborted turn ends the execute_tool spans of concurrent calls it never recorded', async () => {
    const t = tracing();
    const controller = new AbortController();
    let running = 0;
    const two = { toolCalls: ['part 0', 'part 1'].map((task) => ({ name: 'researcher', input: { task } })) };
    const model = scriptedModel([two, { text: 'never' }], {
      subagents: {
        researcher: [{ toolCalls: [{ name: 'wait', input: {} }] }, { toolCalls: [{ name: 'wait', input: {} }] }],
      },
    });
    const session = createSession(
      <Researcher>
        <WaitTool
          onWaiting={() => {
            // Both runs wait inside their tools: abort the parent's turn.
            if (++running === 2) controller.abort();
          }}
        />
      </Researcher>,
      { model, subagentConcurrency: 2, telemetry: { tracer: t.tracer, agentName: 'support' } },
    );
    await expect(session.send('go', { signal: controller.signal })).rejects.toThrow();
    const spans = t.exporter.getFinishedSpans();
    const tools = spans.filter((s) => s.name === 'execute_tool researcher');
    const runs = spans.filter((s) => s.name === 'invoke_agent researcher');
    // Every call's span ended (none left open, unexported), each failed, each the parent of its run.
    expect(tools).toHaveLength(2);
    for (const tool of tools) expect(tool.attributes['error.type']).toBeDefined();
    expect(runs.map((r) => r.parentSpanContext?.spanId).sort()).toEqual(
      tools.map((s) => s.spanContext().spanId).sort(),
    );
  });
});
