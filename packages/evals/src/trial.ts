/**
 * One trial: mount the agent in a fresh session, send the case's messages, and keep what the
 * scorers read (requests, reads, tool calls, usage, timings, final state).
 */
import {
  createSession,
  type Message,
  type Model,
  type ModelRequest,
  type Price,
  restoreSession,
  type Session,
  type SessionOptions,
  type Usage,
} from '@skilltree/core';
import { addUsage } from '@skilltree/core/provider';
import type { ReactNode } from 'react';
import { textOf } from './text.js';
import type {
  AgentChoice,
  EvalCase,
  EvalSessionOptions,
  SkillRead,
  ToolCallRecord,
  TrialError,
  TrialResult,
} from './types.js';

/** Everything one trial needs, resolved from the suite and the variant. */
export interface TrialSpec {
  evalCase: EvalCase;
  variant: string;
  trial: number;
  agent: AgentChoice;
  model: Model;
  options: EvalSessionOptions;
  preload?: 'all' | readonly string[];
  price?: Price;
  signal?: AbortSignal;
}

/** The case's messages as a list. */
export function messagesOf(evalCase: EvalCase): string[] {
  return typeof evalCase.messages === 'string' ? [evalCase.messages] : [...evalCase.messages];
}

const element = (agent: AgentChoice): ReactNode => (typeof agent === 'function' ? agent() : agent);

/** An error's kind: a replay that differs from its recording is the harness's problem, not the model's. */
function errorKind(error: unknown): TrialError['kind'] {
  return error instanceof Error && (error.name === 'RecordingMismatchError' || error.name === 'RecordingEndError')
    ? 'recording'
    : 'turn';
}

const message = (error: unknown) => (error instanceof Error ? error.message : String(error));

function open(spec: TrialSpec, options: SessionOptions): Session {
  const { stores } = spec.evalCase;
  if (!stores) return createSession(element(spec.agent), options);
  // A snapshot of a session that has said nothing yet, holding only the stores (version 1, which
  // every later core reads too).
  const start = JSON.stringify({ version: 1, transcript: [], loadedSkills: [], stores });
  return restoreSession(element(spec.agent), start, options);
}

/** Mounts the agent with the options; with `preload: 'all'`, sized so that every skill stays loaded. */
async function mount(spec: TrialSpec): Promise<{ session: Session; preloaded: string[] }> {
  const options: SessionOptions = { ...spec.options, model: spec.model };
  if (spec.preload === 'all' && options.maxLoadedSkills === undefined) {
    const probe = open(spec, options);
    options.maxLoadedSkills = Math.max(1, probe.skills.length);
    probe.dispose();
  }
  const session = open(spec, options);
  const names = spec.preload === 'all' ? session.skills.map((s) => s.name) : [...(spec.preload ?? [])];
  try {
    for (const name of names) await session.readSkill(name);
  } catch (error) {
    session.dispose();
    throw error;
  }
  return { session, preloaded: names };
}

/** Reads and other tool calls, from the transcript (a call and its result, by id). */
function calls(transcript: readonly Message[], readTool: string): { reads: SkillRead[]; toolCalls: ToolCallRecord[] } {
  const results = new Map<string, Message & { role: 'tool' }>();
  for (const m of transcript) if (m.role === 'tool') results.set(m.toolCallId, m);
  const reads: SkillRead[] = [];
  const toolCalls: ToolCallRecord[] = [];
  let turn = 0;
  for (const m of transcript) {
    if (m.role === 'user') turn++;
    if (m.role !== 'assistant') continue;
    for (const call of m.toolCalls ?? []) {
      const result = results.get(call.id);
      const ok = result !== undefined && result.isError !== true;
      if (call.name === readTool) {
        const name = (call.input as { name?: unknown } | null)?.name;
        reads.push({ name: typeof name === 'string' ? name : '', ok, turn });
      } else {
        toolCalls.push({ name: call.name, input: call.input, ok, result: result ? textOf(result) : '', turn });
      }
    }
  }
  return { reads, toolCalls };
}

const json = <T>(value: T): T => JSON.parse(JSON.stringify(value)) as T;

/**
 * Runs one trial and never throws: a turn that fails ends the trial with `error` set, and what
 * happened until then is kept.
 */
export async function runTrial(spec: TrialSpec): Promise<TrialResult> {
  const base = {
    case: spec.evalCase.name,
    variant: spec.variant,
    trial: spec.trial,
    model: spec.model.name ?? 'model',
    ...(spec.price ? { price: spec.price } : {}),
  };
  let mounted: { session: Session; preloaded: string[] };
  try {
    mounted = await mount(spec);
  } catch (error) {
    return {
      ...base,
      messages: [],
      replies: [],
      text: '',
      transcript: [],
      requests: [],
      reads: [],
      toolCalls: [],
      preloaded: [],
      catalog: [],
      loadedSkills: [],
      stores: {},
      steps: 0,
      usage: {},
      latencyMs: 0,
      modelMs: 0,
      error: { kind: 'setup', message: `The agent did not mount: ${message(error)}` },
    };
  }
  const { session, preloaded } = mounted;
  const requests: ModelRequest[] = [];
  let usage: Usage | undefined;
  let modelMs = 0;
  let asked = 0;
  const off = session.on('event', (event) => {
    if (event.type === 'request') {
      requests.push(json(event.request));
      asked = performance.now();
    } else if (event.type === 'step-finish') {
      modelMs += performance.now() - asked;
      usage = addUsage(usage, event.usage);
    }
  });
  const sent: string[] = [];
  const replies: string[] = [];
  let error: TrialError | undefined;
  const started = performance.now();
  try {
    for (const text of messagesOf(spec.evalCase)) {
      sent.push(text);
      const turn = await session.send(text, spec.signal ? { signal: spec.signal } : {});
      replies.push(turn.text);
    }
  } catch (caught) {
    error = { kind: errorKind(caught), message: message(caught) };
  }
  const latencyMs = performance.now() - started;
  off();
  const transcript = json([...session.transcript]);
  const result: TrialResult = {
    ...base,
    messages: sent,
    replies,
    text: replies.length === sent.length ? (replies[replies.length - 1] ?? '') : '',
    transcript,
    requests,
    ...calls(transcript, session.config.readToolName),
    preloaded,
    catalog: session.skills.map((s) => s.name),
    loadedSkills: session.loadedSkills,
    stores: json(session.storeStates()),
    steps: requests.length,
    usage: usage ?? {},
    latencyMs,
    modelMs,
  };
  if (error) result.error = error;
  session.dispose();
  return result;
}
