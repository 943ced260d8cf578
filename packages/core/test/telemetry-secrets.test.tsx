/**
 * Spans keep secrets: with content recording off (the default) a failed span says what failed and
 * the error's type, never the error's text or stack, wherever the error came from (a tool, the
 * model, a skill or the agent that threw while rendering). With `recordContent: true` the text is
 * there. Checked with the real SDK and its in-memory exporter.
 */
import type { ReadableSpan } from '@opentelemetry/sdk-trace-base';
import { useState } from 'react';
import { afterEach, describe, expect, test } from 'vitest';
import { z } from 'zod';
import {
  Agent,
  createAgentStore,
  createSession,
  type Model,
  Skill,
  scriptedModel,
  type TelemetryOptions,
  Tool,
  useAgentStore,
} from '../src/index.js';
import { shutDownTracing, tracing } from './tracing.js';

const TOOL_SECRET = 'postgres://shop_admin:hunter2@db.internal:5432/orders';
const RENDER_SECRET = 'render-token-ZX81-7731';
const CRASH_SECRET = 'agent-api-key-sk-live-4242';
const MODEL_SECRET = 'x-api-key sk-ant-secret-0000';

const crash = createAgentStore('crash', () => ({ on: false }));

function Vault() {
  const [broken, setBroken] = useState(false);
  if (broken) throw new Error(`vault render failed: ${RENDER_SECRET}`);
  return (
    <Tool
      name="break_vault"
      description="Breaks the vault skill"
      run={() => {
        setBroken(true);
        return 'breaking';
      }}
    />
  );
}

function SecretAgent() {
  const crashed = useAgentStore(crash, (s) => s.on);
  if (crashed) throw new Error(`agent render failed: ${CRASH_SECRET}`);
  return (
    <Agent>
      <Tool
        name="connect_db"
        description="Fails as a database driver does"
        input={z.object({})}
        run={() => {
          throw new Error(`connect ECONNREFUSED ${TOOL_SECRET}`);
        }}
      />
      <Tool
        name="crash_agent"
        description="Makes the agent itself throw while rendering"
        run={(_input, ctx) => {
          crash.of(ctx).setState({ on: true });
          return 'crashing';
        }}
      />
      <Skill name="vault" description="A skill that breaks">
        <Vault />
      </Skill>
    </Agent>
  );
}

afterEach(shutDownTracing);

/** Everything a span exports that a backend shows: name, attributes, events and the status description. */
function exported(span: ReadableSpan): string {
  return JSON.stringify({
    name: span.name,
    attributes: span.attributes,
    events: span.events.map((e) => ({ name: e.name, attributes: e.attributes })),
    status: span.status,
  });
}

function carrying(spans: readonly ReadableSpan[], secret: string): string[] {
  return spans.filter((span) => exported(span).includes(secret)).map((span) => span.name);
}

/** A tool that throws, a skill that throws while rendering, then the agent that throws while rendering. */
async function toolsAndRenders(telemetry: TelemetryOptions) {
  const session = createSession(<SecretAgent />, {
    telemetry,
    model: scriptedModel([
      { toolCalls: [{ id: 'c1', name: 'connect_db', input: {} }] },
      { toolCalls: [{ id: 'c2', name: 'read_skill', input: { name: 'vault' } }] },
      { toolCalls: [{ id: 'c3', name: 'break_vault', input: {} }] },
      { toolCalls: [{ id: 'c4', name: 'crash_agent', input: {} }] },
    ]),
  });
  await expect(session.send('go')).rejects.toThrow(CRASH_SECRET);
}

/** A model whose call fails with a secret in its message. */
async function failingModel(telemetry: TelemetryOptions) {
  const model: Model = {
    name: 'anthropic:claude-test',
    generate: async () => {
      throw new Error(`401 Unauthorized: ${MODEL_SECRET}`);
    },
  };
  const session = createSession(<SecretAgent />, { model, telemetry });
  await expect(session.send('hello')).rejects.toThrow(MODEL_SECRET);
}

describe('spans keep secrets', () => {
  test('without recordContent no span carries a tool error, a render error, a model error or a stack: only error.type and a generic status', async () => {
    const t = tracing();
    await toolsAndRenders({ tracer: t.tracer });
    await failingModel({ tracer: t.tracer });
    const spans = t.exporter.getFinishedSpans();
    for (const secret of [TOOL_SECRET, RENDER_SECRET, CRASH_SECRET, MODEL_SECRET, 'hunter2']) {
      expect(carrying(spans, secret), secret).toEqual([]);
    }
    const failed = spans.filter((s) => s.status.code === 2);
    expect(failed.map((s) => s.name).sort()).toEqual(
      [
        'chat claude-test',
        'execute_tool break_vault',
        'execute_tool connect_db',
        'execute_tool crash_agent',
        'invoke_agent',
        'invoke_agent',
      ].sort(),
    );
    for (const span of failed) {
      expect(span.attributes['error.type']).toMatch(/^[A-Za-z_]+$/);
      expect(span.status.message).toMatch(
        / failed \([A-Za-z_]+\); its message is recorded only with telemetry\.recordContent\.$/,
      );
      for (const event of span.events) {
        expect(Object.keys(event.attributes ?? {})).toEqual(['exception.type']);
      }
    }
    const connect = spans.find((s) => s.name === 'execute_tool connect_db') as ReadableSpan;
    expect(connect.attributes['error.type']).toBe('Error');
    expect(connect.status.message).toBe(
      'The tool call failed (Error); its message is recorded only with telemetry.recordContent.',
    );
    const unload = spans.find((s) => s.name === 'unload_skill vault') as ReadableSpan;
    expect(unload.attributes['skilltree.skill.unload_reason']).toBe('error');
    expect(unload.attributes).not.toHaveProperty('skilltree.skill.unload_detail');
  });

  test('with recordContent the error texts are on the spans that failed: the tool’s, the render errors, the model’s', async () => {
    const t = tracing();
    await toolsAndRenders({ tracer: t.tracer, recordContent: true });
    await failingModel({ tracer: t.tracer, recordContent: true });
    const spans = t.exporter.getFinishedSpans();
    expect(carrying(spans, TOOL_SECRET)).toContain('execute_tool connect_db');
    expect(carrying(spans, RENDER_SECRET)).toContain('unload_skill vault');
    expect(carrying(spans, CRASH_SECRET)).toEqual(expect.arrayContaining(['execute_tool crash_agent', 'invoke_agent']));
    expect(carrying(spans, MODEL_SECRET)).toEqual(['chat claude-test', 'invoke_agent']);
    const model = spans.find((s) => s.name === 'chat claude-test') as ReadableSpan;
    expect(model.status.message).toBe(`401 Unauthorized: ${MODEL_SECRET}`);
    expect(model.events[0]?.attributes?.['exception.stacktrace']).toEqual(expect.any(String));
  });

  test('an error whose name is free text gives error.type "Error", not the text', async () => {
    const t = tracing();
    const model: Model = {
      name: 'scripted',
      generate: async () => {
        const error = new Error('down');
        error.name = `Error for ${MODEL_SECRET}`;
        throw error;
      },
    };
    const session = createSession(<SecretAgent />, { model, telemetry: { tracer: t.tracer } });
    await expect(session.send('hello')).rejects.toThrow('down');
    const spans = t.exporter.getFinishedSpans();
    expect(carrying(spans, MODEL_SECRET)).toEqual([]);
    expect(spans.map((s) => s.attributes['error.type'])).toEqual(['Error', 'Error']);
  });
});
