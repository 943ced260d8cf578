/**
 * SPEC §19, traces: a run is traced as `invoke_agent {name}` under the parent's `execute_tool {name}`
 * span, with what its spawn cost before it was sent.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { Agent, createSession, Instructions, Subagent, scriptedModel, Tool } from '../src/index.js';
import { shutDownTracing, tracing } from './tracing.js';

afterEach(shutDownTracing);

describe('spans', () => {
  it('a run is traced as invoke_agent {name} under the parent’s execute_tool {name} span, with its spawn cost', async () => {
    const t = tracing();
    const model = scriptedModel([{ toolCalls: [{ name: 'researcher', input: { task: 'look' } }] }, { text: 'done' }], {
      subagents: { researcher: [{ toolCalls: [{ name: 'read_record', input: {} }] }, { text: 'found' }] },
    });
    const session = createSession(
      <Agent>
        <Instructions>You delegate.</Instructions>
        <Subagent name="researcher" description="Research">
          <Instructions>Research.</Instructions>
          <Tool name="read_record" description="Read" run={() => 'record'} />
        </Subagent>
      </Agent>,
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
});
