/**
 * One trial: mount the agent in a fresh session, send the case's messages, and keep what the
 * scorers read (requests, reads, tool calls, usage, timings, final state).
 */
import {
  createSession,
  type Model,
  type ModelRequest,
  type Price,
  restoreSession,
  type Session,
  type SessionOptions,
  type ToolAnswer,
  type Turn,
  type Usage,
} from '@skilltree/core';
import { addUsage } from '@skilltree/core/provider';
import type { ReactNode } from 'react';
import { answerFor, fileLabel, turnsOf } from './case-turns.js';
import { EvalSetupError } from './errors.js';
import { sumAttributions } from './scorers/attribution.js';
import { callsOf, type WaitLog } from './trial-calls.js';
import type { AgentChoice, EvalCase, EvalSessionOptions, SubagentRunRecord, TrialError, TrialResult } from './types.js';

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
  /** The model replays a recording: its time is not a model's. */
  replayed?: boolean;
}

const element = (agent: AgentChoice): ReactNode => (typeof agent === 'function' ? agent() : agent);

/** An error's kind: a replay that differs from its recording is the harness's problem, not the model's. */
function errorKind(error: unknown): TrialError['kind'] {
  if (!(error instanceof Error)) return 'turn';
  if (error.name === 'RecordingMismatchError' || error.name === 'RecordingEndError') return 'recording';
  // The eval itself cannot run as written (an answer of the wrong shape, an oracle that cannot make
  // an input): the harness's problem, not a score of the model.
  return error.name === 'EvalSetupError' ? 'setup' : 'turn';
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

/** Most rounds of answers one turn gets: a model that asks again after every answer would never end. */
const MAX_ANSWER_ROUNDS = 50;

/**
 * Answers the calls a turn ended waiting for, as the case says, until none waits or none has an
 * answer; returns the last turn. Every call that waited is logged with what it waited for.
 */
async function answerWaiting(
  evalCase: EvalCase,
  session: Session,
  first: Turn,
  log: WaitLog,
  opts: { signal?: AbortSignal },
): Promise<Turn> {
  let turn = first;
  for (let round = 0; round < MAX_ANSWER_ROUNDS && turn.waiting?.length; round++) {
    const answers: ToolAnswer[] = [];
    for (const call of turn.waiting) {
      log.waited.set(call.toolCallId, call.for);
      let answer: ToolAnswer | undefined;
      try {
        answer = await answerFor(evalCase, call);
      } catch (error) {
        throw new EvalSetupError(message(error));
      }
      if (answer) answers.push(answer);
    }
    if (answers.length === 0) return turn;
    for (const a of answers) log.answered.set(a.toolCallId, a.type);
    turn = await session.answer(answers, opts);
  }
  return turn;
}

const json = <T>(value: T): T => JSON.parse(JSON.stringify(value)) as T;

/** The session's subagent runs as the scorers read them (the runs' transcripts stay out of reports). */
function runRecords(session: Session): SubagentRunRecord[] {
  return (session.subagentRuns ?? []).map((run) => ({
    name: run.name,
    id: run.id,
    toolCallId: run.toolCallId,
    depth: run.depth,
    context: run.context,
    status: run.status,
    usage: json(run.usage ?? {}),
    steps: run.transcript.filter((m) => m.role === 'assistant').length,
    ...(run.error !== undefined ? { error: run.error } : {}),
  }));
}

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
  let steps = 0;
  let estimatedSteps = 0;
  const off = session.on('event', (event) => {
    if (event.type === 'request') {
      // With what each part cost: `attribution` is a getter, which JSON leaves out.
      requests.push(json({ ...event.request, attribution: event.request.attribution }));
      asked = performance.now();
    } else if (event.type === 'step-finish') {
      modelMs += performance.now() - asked;
      usage = addUsage(usage, event.usage);
      steps++;
      // A scripted model's usage is an estimate on every step; a real model reports its own.
      if (event.usage?.estimated === true) estimatedSteps++;
    } else if (event.type === 'subagent-finish' && event.run.depth === 1) {
      // A run's model calls report inside its events; its usage counts in the trial once it ends.
      usage = addUsage(usage, event.run.usage);
    }
  });
  const sent: string[] = [];
  const files: string[][] = [];
  const replies: string[] = [];
  const log: WaitLog = { waited: new Map(), answered: new Map(), waitingNow: new Set() };
  const opts = spec.signal ? { signal: spec.signal } : {};
  let error: TrialError | undefined;
  const started = performance.now();
  try {
    for (const said of turnsOf(spec.evalCase)) {
      sent.push(said.text);
      files.push(said.files.map(fileLabel));
      let turn = await session.send(said.text, said.files.length > 0 ? { ...opts, files: said.files } : opts);
      turn = await answerWaiting(spec.evalCase, session, turn, log, opts);
      replies.push(turn.text);
    }
  } catch (caught) {
    error = { kind: errorKind(caught), message: message(caught) };
  }
  const latencyMs = performance.now() - started;
  off();
  for (const w of session.waiting) log.waitingNow.add(w.toolCallId);
  const transcript = json([...session.transcript]);
  const subagentRuns = runRecords(session);
  const result: TrialResult = {
    ...base,
    messages: sent,
    ...(files.some((f) => f.length > 0) ? { files } : {}),
    replies,
    text: replies.length === sent.length ? (replies[replies.length - 1] ?? '') : '',
    transcript,
    requests,
    attribution: sumAttributions(requests),
    ...callsOf(transcript, session.config.readToolName, log),
    ...(subagentRuns.length > 0 ? { subagentRuns } : {}),
    preloaded,
    catalog: session.skills.map((s) => s.name),
    loadedSkills: session.loadedSkills,
    stores: json(session.storeStates()),
    steps: requests.length,
    usage: usage ?? {},
    latencyMs,
    modelMs,
    offline: spec.replayed === true || (steps > 0 && estimatedSteps === steps),
  };
  if (error) result.error = error;
  session.dispose();
  return result;
}
