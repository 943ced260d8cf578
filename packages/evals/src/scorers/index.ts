/**
 * The scorers every eval runs, in the order their metrics are listed.
 */
import type { Scorer } from '../types.js';
import { selectionScorer } from './selection.js';
import { subagentScorer } from './subagents.js';
import { successScorer } from './success.js';
import { toolCallScorer } from './tool-calls.js';
import { costScorer, latencyScorer, stepsScorer, tokensScorer } from './usage.js';

/** The built-in scorers: success, selection, tools, subagents, steps, tokens, cost, latency. */
export const BUILT_IN_SCORERS: readonly Scorer[] = [
  successScorer,
  selectionScorer,
  toolCallScorer,
  subagentScorer,
  stepsScorer,
  tokensScorer,
  costScorer,
  latencyScorer,
];
