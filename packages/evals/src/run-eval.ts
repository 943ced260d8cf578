/**
 * `runEval`: every case × variant × trial, a few at a time, scored, summarised in a report.
 */
import { type Model, type Price, priceFor } from '@skilltree/core';
import { defineEval } from './define.js';
import { recordingFile } from './recording/files.js';
import { recordModel } from './recording/record.js';
import { replayModel } from './recording/replay.js';
import type { CleanOptions } from './recording/secrets.js';
import { buildReport, type EvalReport, type ScoredTrial } from './report.js';
import { declaredMetrics, scoreTrial, type TrialScores } from './score.js';
import { BUILT_IN_SCORERS } from './scorers/index.js';
import { parseThreshold } from './thresholds.js';
import { runTrial } from './trial.js';
import type { EvalCase, EvalSuite, EvalVariant, ModelChoice, Threshold, TrialResult } from './types.js';

/** Record each trial's conversation, replay it, or replay what is recorded and record the rest. */
export interface RecordingsOptions extends CleanOptions {
  /** Where the recordings live: one file per trial, `<dir>/<suite>/<variant>/<case>-<trial>.json`. */
  dir: string;
  /**
   * `'record'`: call the model and (over)write the recordings. `'replay'`: answer from them, no model
   * needed (a request that differs fails the trial, saying where). `'auto'`: replay where a
   * recording exists, record where none does.
   */
  mode: 'record' | 'replay' | 'auto';
  /** Paths left out when replayed requests are compared (see `replayModel`). */
  ignore?: readonly string[];
}

/** Progress of a run, for a terminal or a test reporter. */
export type EvalProgress =
  | { type: 'start'; suite: string; total: number; variants: string[]; cases: number }
  | { type: 'trial'; done: number; total: number; result: TrialResult; scores: TrialScores }
  | { type: 'end'; report: EvalReport };

/** Options of {@link runEval}. */
export interface RunEvalOptions {
  /** Trials running at once. Default 4. */
  concurrency?: number;
  /** Trials of every case, over the suite's and the cases' own. */
  trials?: number;
  /** Only the cases whose names contain one of these (case-insensitive). */
  cases?: readonly string[];
  /** Only these variants. */
  variants?: readonly string[];
  /** The model for every variant that names none, over the suite's (the CLI's `--model`). */
  model?: ModelChoice;
  /** The price for cost, over the suite's and the variants' (the CLI's `--price`). */
  price?: Price | string;
  /** Thresholds added to the suite's. */
  thresholds?: readonly (string | Threshold)[];
  /** Record or replay each trial's conversation. */
  recordings?: RecordingsOptions;
  /** Called as the run goes. */
  onProgress?: (event: EvalProgress) => void;
  /** Stops the run: no new trial starts, running turns are aborted, and `runEval` rejects. */
  signal?: AbortSignal;
}

interface Task {
  evalCase: EvalCase;
  variant: EvalVariant;
  trial: number;
}

function resolvePrice(price: Price | string | undefined, model: Model): Price | undefined {
  if (price === undefined) return model.name ? priceFor(model.name) : undefined;
  if (typeof price !== 'string') return price;
  const known = priceFor(price);
  if (!known)
    throw new Error(
      `No list price for "${price}": pass a price instead, e.g. { input: 3, output: 15 } (US dollars per million tokens).`,
    );
  return known;
}

function modelFor(task: Task, suite: EvalSuite, options: RunEvalOptions): Model {
  const choice = task.variant.model ?? options.model ?? suite.model;
  if (!choice) {
    throw new Error(
      `No model for variant "${task.variant.name}": set the suite's model or the variant's, pass one to runEval (the CLI's --model), or replay recordings.`,
    );
  }
  return typeof choice === 'function'
    ? choice({ case: task.evalCase, variant: task.variant.name, trial: task.trial })
    : choice;
}

/** The trial's model, wrapped to record or replaced by a replay, as the recordings option says. */
function trialModel(
  task: Task,
  suite: EvalSuite,
  options: RunEvalOptions,
  exists: (file: string) => boolean,
): { model: Model; replayed: boolean } {
  const rec = options.recordings;
  if (!rec) return { model: modelFor(task, suite, options), replayed: false };
  const file = recordingFile(rec.dir, suite.name, task.variant.name, task.evalCase.name, task.trial);
  if (rec.mode === 'replay' || (rec.mode === 'auto' && exists(file))) {
    return { model: replayModel(file, rec), replayed: true };
  }
  return { model: recordModel(modelFor(task, suite, options), { ...rec, file }), replayed: false };
}

/** Names the case expects that the agent has no skill for. */
function unknownSkills(evalCase: EvalCase, catalog: readonly string[]): string[] {
  const e = evalCase.expect ?? {};
  const named = [...(e.reads ?? []), ...(e.mayRead ?? []), ...(Array.isArray(e.notRead) ? e.notRead : [])];
  return [...new Set(named)].filter((n) => !catalog.includes(n));
}

const matching = (name: string, filters: readonly string[] | undefined) =>
  !filters || filters.length === 0 || filters.some((f) => name.toLowerCase().includes(f.toLowerCase()));

/**
 * Runs the suite: each case on each variant, as many trials as asked, `concurrency` at a time;
 * scores every trial with the built-in scorers and the suite's own; and resolves to the report
 * (metrics per variant and case with mean and spread, deltas against the first variant, thresholds).
 * Trials whose turns fail are scored as they are (success 0); a replay that differs from its
 * recording, or an agent that does not mount, is a problem of the run and fails it.
 *
 * @example
 * const report = await runEval(suite, { concurrency: 2, onProgress: progressPrinter(process.stderr) });
 * console.log(formatTable(report));
 */
export async function runEval(suite: EvalSuite, options: RunEvalOptions = {}): Promise<EvalReport> {
  defineEval(suite);
  const scorers = [...BUILT_IN_SCORERS, ...(suite.scorers ?? [])];
  const thresholds = [...(suite.thresholds ?? []), ...(options.thresholds ?? [])].map(parseThreshold);
  const allVariants: EvalVariant[] = suite.variants?.length ? [...suite.variants] : [{ name: 'default' }];
  const variants = allVariants.filter((v) => !options.variants || options.variants.includes(v.name));
  if (variants.length === 0) {
    throw new Error(
      `No variant named ${options.variants?.join(', ')} in "${suite.name}" (variants: ${allVariants.map((v) => v.name).join(', ')}).`,
    );
  }
  if (options.recordings?.mode !== 'replay' && options.recordings?.mode !== 'auto') {
    const without = variants.find((v) => !v.model && !options.model && !suite.model);
    if (without) modelFor({ evalCase: suite.cases[0], variant: without, trial: 1 }, suite, options);
  }
  const cases = suite.cases.filter((c) => matching(c.name, options.cases));
  if (cases.length === 0) throw new Error(`No case of "${suite.name}" matches ${options.cases?.join(', ')}.`);
  const concurrency = options.concurrency ?? 4;
  if (!Number.isInteger(concurrency) || concurrency < 1)
    throw new Error(`concurrency must be a whole number, 1 or more (got ${concurrency}).`);
  const tasks: Task[] = [];
  const trialsOf = (c: EvalCase) => options.trials ?? c.trials ?? suite.trials ?? 1;
  const rounds = Math.max(...cases.map(trialsOf));
  // Variants of a case run side by side, and which goes first turns with each case and round: no
  // variant always starts first (cold caches, an idle connection) or last (a busy machine).
  let turnOf = 0;
  for (let trial = 1; trial <= rounds; trial++) {
    for (const evalCase of cases) {
      if (trial > trialsOf(evalCase)) continue;
      const first = turnOf++ % variants.length;
      for (let k = 0; k < variants.length; k++) {
        tasks.push({ evalCase, variant: variants[(first + k) % variants.length], trial });
      }
    }
  }
  const { existsSync } = await import('node:fs');
  const started = new Date();
  const t0 = performance.now();
  options.onProgress?.({
    type: 'start',
    suite: suite.name,
    total: tasks.length,
    variants: variants.map((v) => v.name),
    cases: cases.length,
  });
  const scored: ScoredTrial[] = [];
  const problems = new Set<string>();
  let next = 0;
  let done = 0;
  // A trial that cannot start (no model, no recording) stops the run: the others finish the trial
  // they are in, start no other, and runEval rejects with the first such error.
  let failure: { error: unknown } | undefined;
  const worker = async () => {
    while (next < tasks.length && !failure) {
      if (options.signal?.aborted) return;
      const task = tasks[next++];
      let model: Model;
      let replayed: boolean;
      try {
        ({ model, replayed } = trialModel(task, suite, options, existsSync));
      } catch (error) {
        failure ??= { error };
        return;
      }
      const result = await runTrial({
        evalCase: task.evalCase,
        variant: task.variant.name,
        trial: task.trial,
        agent: task.variant.agent ?? suite.agent,
        model,
        options: { ...suite.options, ...task.variant.options },
        ...(task.variant.preload ? { preload: task.variant.preload } : {}),
        price: resolvePrice(options.price ?? task.variant.price ?? suite.price, model),
        ...(options.signal ? { signal: options.signal } : {}),
        ...(replayed ? { replayed } : {}),
      });
      const left = (model as { remaining?: unknown }).remaining;
      if (options.recordings && typeof left === 'number' && left > 0 && !result.error) {
        result.error = {
          kind: 'recording',
          message: `the conversation ended with ${left} recorded requests not replayed: record it again.`,
        };
      }
      const unknown = result.error?.kind === 'setup' ? [] : unknownSkills(task.evalCase, result.catalog);
      if (unknown.length > 0) {
        problems.add(
          `case "${task.evalCase.name}" names ${unknown.map((n) => `"${n}"`).join(', ')}, not a skill of variant "${task.variant.name}" (skills: ${result.catalog.join(', ') || 'none'})`,
        );
      }
      const scores = await scoreTrial(result, task.evalCase, scorers);
      scored.push({ evalCase: task.evalCase, result, scores });
      done++;
      options.onProgress?.({ type: 'trial', done, total: tasks.length, result, scores });
    }
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, tasks.length) }, worker));
  if (failure) throw failure.error;
  if (options.signal?.aborted) {
    const error = new Error(`The eval "${suite.name}" was stopped after ${done} of ${tasks.length} trials.`);
    error.name = 'AbortError';
    throw error;
  }
  const report = buildReport({
    name: suite.name,
    startedAt: started,
    durationMs: performance.now() - t0,
    cases,
    variants: variants.map((v) => v.name),
    trials: scored,
    metrics: declaredMetrics(scorers),
    thresholds,
  });
  if (problems.size > 0) {
    report.problems.unshift(...problems);
    report.passed = false;
  }
  options.onProgress?.({ type: 'end', report });
  return report;
}
