/**
 * Crafted trials: a TrialResult with defaults, so that a scorer test states only what it is about.
 */
import type { TrialResult } from '@skilltree/evals';

/** A trial of case `c` on variant `v` that did nothing, with `over` applied. */
export function trialOf(over: Partial<TrialResult> = {}): TrialResult {
  return {
    case: 'c',
    variant: 'v',
    trial: 1,
    model: 'test',
    messages: ['hi'],
    replies: ['hello'],
    text: 'hello',
    transcript: [],
    requests: [],
    reads: [],
    toolCalls: [],
    preloaded: [],
    catalog: ['shopping', 'refunds', 'billing'],
    loadedSkills: [],
    stores: {},
    steps: 1,
    usage: {},
    latencyMs: 10,
    modelMs: 5,
    ...over,
  };
}

/** Reads of these skills, all accepted, in turn 1. */
export const reads = (...names: string[]) => names.map((name) => ({ name, ok: true, turn: 1 }));

/** Calls of tools: `[name, input?]`, all successful, in turn 1. */
export const calls = (...list: [string, unknown?][]) =>
  list.map(([name, input]) => ({ name, input: input ?? {}, ok: true, result: 'ok', turn: 1 }));
