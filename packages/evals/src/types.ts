/**
 * The shapes of an eval: cases (what to send, what should happen), variants (what to compare),
 * the suite that holds them, and what one trial produced for the scorers.
 */
import type {
  FileInput,
  Message,
  Model,
  ModelRequest,
  Price,
  RequestAttribution,
  SessionOptions,
  Usage,
  WaitingCall,
} from '@skilltree/core';
import type { FilePart, ToolErrorKind } from '@skilltree/core/provider';

/** What each part of the tree costs in a request: core's `request.attribution`. */
export type { RequestAttribution };

import type { ReactNode } from 'react';

/**
 * What a value must look like: a literal (compared with `===`, or structurally for objects and
 * arrays, where an object needs only the keys it names), a RegExp (tested on the value as text), or
 * a predicate.
 */
export type Matcher = unknown;

/** A tool call an eval case expects: the tool's name, and optionally what its input must match. */
export interface ExpectedToolCall {
  name: string;
  /** A {@link Matcher} for the input: `{ orderId: 'A-1042' }` needs only that key. Default: any input. */
  input?: Matcher;
}

/**
 * A rule on the final reply: a string it must contain, a RegExp it must match, or `{ not }`: a
 * string it must not contain or a RegExp it must not match.
 */
export type TextRule = string | RegExp | { not: string | RegExp };

/** What a store must hold at the end: a {@link Matcher} of its state, or a predicate that returns false or a message when it fails. */
export type StoreRule = Matcher | ((state: any) => unknown);

/** What should happen in a case. Every field is optional; what is left out is not checked. */
export interface EvalExpectations {
  /** Skills the model must read (calls of the read tool). Selection precision and recall are scored against these. */
  reads?: readonly string[];
  /** Skills the model may read or not: neither needed nor counted against precision. */
  mayRead?: readonly string[];
  /** Skills the model must not read; `'others'`: every skill not in `reads` or `mayRead`. */
  notRead?: readonly string[] | 'others';
  /**
   * Tool calls the model must make and that must run (the read tool left out); a string is a call
   * of that tool with any input. A call that never ran (it waits for approval, was denied, or its
   * input was refused) does not count. `[]`: the model must call no tool at all, whatever `order` says.
   */
  toolCalls?: readonly (string | ExpectedToolCall)[];
  /**
   * How `toolCalls` must be ordered: `'in-order'` (default: in this order, other calls between
   * them allowed), `'any'`, or `'exact'` (these calls and no others, in this order).
   */
  order?: 'in-order' | 'any' | 'exact';
  /** Tools the model must not call (a call counts whether or not it ran). */
  notCalled?: readonly string[];
  /**
   * Calls that must wait for an answer (a person's approval, or the client's result), in any order,
   * answered or not; a string is a call of that tool with any input. Without it, a call still
   * waiting when the trial ends fails the case: it never ran.
   */
  waiting?: readonly (string | ExpectedToolCall)[];
  /** Rules on the final reply (the last turn's text). */
  text?: TextRule | readonly TextRule[];
  /** Rules on store state at the end, by store name. */
  stores?: Readonly<Record<string, StoreRule>>;
  /**
   * Subagents the model must spawn (calls of a `<Subagent>`'s tool that started a run, at any depth),
   * each at least once; a run that failed still counts as spawned (success also needs it to finish:
   * see {@link SubagentRunRecord.status}). `[]`: the model must spawn none. The `subagents` scorer
   * gives precision and recall against it.
   */
  subagents?: readonly string[];
  /** A free-text expectation for an LLM-judged scorer ({@link judgeScorer}), e.g. "apologises and gives the tracking number". */
  judge?: string;
  /** Your own check: return false or a message to fail the case; throw to fail it with the error. */
  check?: (trial: TrialResult) => unknown;
}

/** A file a case sends with a message: bytes, base64 or a data URL, with a media type and a filename. */
export type EvalFile = FileInput | FilePart;

/** A user message of a case: its text, or its text with files attached (the text may then be empty). */
export type EvalMessage = string | { text: string; files?: readonly EvalFile[] };

/**
 * What the person (or the client) answers to a call that waits: `'approve'` (the tool runs),
 * `'deny'` or `{ deny: reason }` (the model reads the denial), or `{ result }` for a client tool.
 */
export type WaitingAnswer = 'approve' | 'deny' | { deny: string } | { result: unknown; isError?: boolean };

/**
 * How a case answers calls that wait: by tool name (`{ issue_refund: 'approve' }`), or a function
 * of the waiting call that returns an answer, or undefined to leave it waiting.
 */
export type WaitingAnswers =
  | Readonly<Record<string, WaitingAnswer>>
  | ((call: WaitingCall) => WaitingAnswer | undefined | Promise<WaitingAnswer | undefined>);

/** One eval case: the conversation to run and what should happen. */
export interface EvalCase {
  /** Unique in the suite; names the case in tables, reports and recordings. */
  name: string;
  /** The user's messages, one turn each: text, or `{ text, files }`. */
  messages: EvalMessage | readonly EvalMessage[];
  /** Files sent with the first message (attachments: a photo, a PDF, a text file). */
  files?: readonly EvalFile[];
  /** Store state to start from, by store name (as `session.snapshot().stores` holds it). */
  stores?: Readonly<Record<string, unknown>>;
  /**
   * Answers to calls that wait for approval or for the client: each turn that ends waiting is
   * answered and goes on; a call without an answer stays waiting (see `expect.waiting`).
   */
  answers?: WaitingAnswers;
  /** What should happen. */
  expect?: EvalExpectations;
  /** Trials of this case (overrides the suite's). */
  trials?: number;
}

/** What a model factory is told about the trial it makes a model for. */
export interface ModelContext {
  /** The case being run. */
  case: EvalCase;
  /** The variant's name. */
  variant: string;
  /** The trial's number, from 1. */
  trial: number;
}

/**
 * The model of a trial: a model (shared by every trial), or a factory called once per trial (a
 * `scriptedModel` holds its script's position, so it needs a fresh one each time).
 */
export type ModelChoice = Model | ((context: ModelContext) => Model);

/** An agent: an element, or a function that returns one (called once per trial). */
export type AgentChoice = ReactNode | (() => ReactNode);

/** Session options a variant may set (everything but the model, which has its own field). */
export type EvalSessionOptions = Omit<SessionOptions, 'model'>;

/** One way to run the cases: another agent, other options, another model. Unset fields come from the suite. */
export interface EvalVariant {
  /** Unique in the suite; names the variant in tables, thresholds (`recall@name`) and recordings. */
  name: string;
  /** The agent, e.g. the same agent with other skill descriptions. */
  agent?: AgentChoice;
  /** The model. */
  model?: ModelChoice;
  /** Session options (`maxLoadedSkills`, `windowMode`, …), merged over the suite's. */
  options?: EvalSessionOptions;
  /**
   * Skills read before the first message (by code, not by the model): `'all'` loads every skill of
   * the catalog (and raises `maxLoadedSkills` to the catalog's size unless the options set it),
   * the layout with everything loaded, to compare with reading on demand. Preloaded skills are left
   * out of selection scores.
   */
  preload?: 'all' | readonly string[];
  /** The price for cost: a {@link Price} or a model name of core's price table. Default: the model's list price. */
  price?: Price | string;
}

/** A threshold on a metric, e.g. `{ metric: 'selection.recall', op: '>=', value: 0.9 }`. */
export interface Threshold {
  metric: string;
  op: '>=' | '>' | '<=' | '<' | '==';
  value: number;
  /** Only this variant; default: every variant. */
  variant?: string;
}

/** An eval: the agent, the cases, the variants to compare and how to score them. */
export interface EvalSuite {
  /** Names the suite in tables and reports. */
  name: string;
  /** The agent under test (variants may replace it). */
  agent?: AgentChoice;
  /** The model (variants may replace it). */
  model?: ModelChoice;
  /** Session options for every variant. */
  options?: EvalSessionOptions;
  cases: readonly EvalCase[];
  /** The variants to compare, the first one the baseline of the deltas. Default: one, `default`. */
  variants?: readonly EvalVariant[];
  /** Scorers added to the built-in ones. */
  scorers?: readonly Scorer[];
  /** Thresholds that fail the run: `'selection.recall >= 0.9'`, `'cost@haiku < 0.01'`, or {@link Threshold} objects. */
  thresholds?: readonly (string | Threshold)[];
  /** Trials of each case. Default 1. */
  trials?: number;
  /** The price for cost, for every variant that sets none. */
  price?: Price | string;
}

/** A read of a skill in a trial: a call of the read tool. */
export interface SkillRead {
  /** The name the model asked for (`''` when it gave none). */
  name: string;
  /** False when the read was refused (unknown skill, a clash, …). */
  ok: boolean;
  /** The turn it happened in, from 1. */
  turn: number;
}

/**
 * What became of a tool call: `ok` (it ran), `error` (it ran and failed: it threw, timed out, was
 * interrupted), `denied` (a person or a policy refused it), `not-run` (never started: an unknown
 * tool, input its schema refused, a budget), `waiting` (it still waits for an answer at the end).
 */
export type CallStatus = 'ok' | 'error' | 'denied' | 'not-run' | 'waiting';

/** A call of a tool other than the read tool in a trial. */
export interface ToolCallRecord {
  name: string;
  input: unknown;
  /** False when the result was an error (unknown tool, invalid input, the tool threw, …) or there is none. */
  ok: boolean;
  /** What became of it; only `ok` and `error` calls ran. Absent on records made before it was kept: read `ok`. */
  status?: CallStatus;
  /** Why its result is an error, as core says. */
  errorKind?: ToolErrorKind;
  /** What it waited for before it ran (or was denied), when it waited. */
  waited?: 'approval' | 'client';
  /** How the case answered it, when it waited and was answered. */
  answer?: 'approve' | 'deny' | 'result';
  /** The result's text (`''` when there is none). */
  result: string;
  /** The turn it happened in, from 1. */
  turn: number;
}

/** A subagent run in a trial: what it was, how it ended and what it used (its transcript stays in `transcript` of the run). */
export interface SubagentRunRecord {
  /** The `<Subagent name>`. */
  name: string;
  /** The run's id in the chat. */
  id: string;
  /** The call that spawned it (the parent's, or a run's for a nested run). */
  toolCallId: string;
  /** 1 for a run the agent spawned, 2 for one spawned inside a run, … */
  depth: number;
  context: 'isolated' | 'fork';
  /** `done`, or why not: `failed`, `aborted`, or `running`/`waiting` when the trial ended first. */
  status: 'running' | 'waiting' | 'done' | 'failed' | 'aborted';
  /** The run's usage (nested runs' included); the trial's `usage` counts it too. */
  usage: Usage;
  /** Model calls the run made (its assistant messages). */
  steps: number;
  /** Why it failed, when it did. */
  error?: string;
}

/** Why a trial stopped early. `recording`: a replayed conversation differs; `setup`: the agent did not mount. */
export interface TrialError {
  kind: 'turn' | 'recording' | 'setup';
  message: string;
}

/** What one trial of one case on one variant produced: what scorers read. */
export interface TrialResult {
  case: string;
  variant: string;
  /** From 1. */
  trial: number;
  /** The model's name. */
  model: string;
  /** The user messages sent (all of them unless a turn failed), as text. */
  messages: string[];
  /** The names (or media types) of the files sent with each message, when any were. */
  files?: string[][];
  /** Each finished turn's reply. */
  replies: string[];
  /** The final reply: the last finished turn's text (`''` when none finished). */
  text: string;
  /** The whole transcript, as JSON data. */
  transcript: Message[];
  /** Every request the model received, as JSON data, each with its `attribution` (what each part of the tree cost). */
  requests: ModelRequest[];
  /**
   * What each part of the tree cost over every request of the trial: the requests' attributions
   * summed part by part (null when none carries one, e.g. a trial that did not mount).
   */
  attribution?: RequestAttribution | null;
  /** Calls of the read tool, in order. */
  reads: SkillRead[];
  /** Calls of every other tool, in order (a subagent's call is one, with the run's result). */
  toolCalls: ToolCallRecord[];
  /** The subagent runs of the trial, in the order they started (nested ones included). */
  subagentRuns?: SubagentRunRecord[];
  /** Skills read by code before the first message (a variant's `preload`). */
  preloaded: string[];
  /** The skill names of the catalog. */
  catalog: string[];
  /** Skills loaded at the end, least recently read first. */
  loadedSkills: string[];
  /** Store state at the end, by name. */
  stores: Record<string, unknown>;
  /** Model calls. */
  steps: number;
  /** Usage summed over every model call, as the model reported it. */
  usage: Usage;
  /** Wall time of the turns, in milliseconds. */
  latencyMs: number;
  /** The part of it spent waiting for the model. */
  modelMs: number;
  /**
   * True when the model was a scripted or replayed one (every step's usage estimated, or a
   * recording): its time is the harness's, so latency is not scored.
   */
  offline?: boolean;
  /** The price cost is estimated with, when one is known. */
  price?: Price;
  error?: TrialError;
}

/** How a metric reads: which way is better, and what unit it has (for tables and deltas). */
export interface MetricSpec {
  /** Default `'higher'`. */
  better?: 'higher' | 'lower' | 'none';
  /** `ratio` (0 to 1, deltas as differences), `count`, `tokens`, `usd`, `ms` (deltas in percent). Default `ratio`. */
  unit?: 'ratio' | 'count' | 'tokens' | 'usd' | 'ms';
  /** One line for the legend. */
  description?: string;
}

/** A value a scorer gives: a number, a boolean (1 or 0), or null when the metric does not apply to the trial. */
export type ScoreValue = number | boolean | null | undefined;

/**
 * What a scorer returns: a value (the metric named after the scorer), or an object with a value,
 * named metrics (`<scorer>.<key>`) and notes that say why.
 */
export type ScorerOutput = ScoreValue | { value?: ScoreValue; metrics?: Record<string, ScoreValue>; notes?: string[] };

/**
 * Scores trials. `score` gets each trial with its case; `metrics` says how each metric reads (its
 * key is the part after `<name>.`, or `''` for the value itself).
 *
 * @example
 * const polite: Scorer = {
 *   name: 'polite',
 *   score: (trial) => /thank/i.test(trial.text),
 * };
 */
export interface Scorer {
  /** Names its metrics: `name` for the value, `name.key` for the others. Letters, digits, `_` and `-`. */
  name: string;
  metrics?: Record<string, MetricSpec>;
  score(trial: TrialResult, evalCase: EvalCase): ScorerOutput | Promise<ScorerOutput>;
}
