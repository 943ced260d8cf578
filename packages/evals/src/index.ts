/**
 * `@skilltree/evals`: does the model read the right skills, succeed at the task, and at what cost?
 * Eval cases, scorers, variants side by side, reports, and recorded conversations replayed offline.
 *
 * @packageDocumentation
 */

export {
  CANARY_CATALOG,
  type CanaryAgentOptions,
  type CanarySkill,
  type CanarySuiteOptions,
  type CanaryTask,
  canaryAgent,
  canaryCode,
  canaryCodes,
  canaryScorer,
  canarySuite,
  catalogOf,
} from './canary.js';
export { defineEval } from './define.js';
export { EvalSetupError } from './errors.js';
export {
  comparable,
  formatCall,
  formatCell,
  formatChange,
  formatDelta,
  formatStat,
  formatValue,
  fromTokens,
} from './format.js';
export { escapeHtml, renderHtml } from './html.js';
export { matches, mismatch } from './match.js';
export { type OracleOptions, oracleModel } from './oracle.js';
export { type ProgressOutput, progressPrinter } from './progress.js';
export { type Difference, differences } from './recording/diff.js';
export {
  parseRecording,
  type RecordedExchange,
  type RecordedRequest,
  type Recording,
  readRecording,
  writeRecording,
} from './recording/file.js';
export { recordingFile } from './recording/files.js';
export { type RecordingModel, type RecordOptions, recordModel } from './recording/record.js';
export {
  RecordingEndError,
  RecordingMismatchError,
  type ReplayModel,
  type ReplayOptions,
  replayModel,
} from './recording/replay.js';
export { type CleanOptions, environmentSecrets, type Redactor, type SecretPolicy } from './recording/secrets.js';
export {
  buildReport,
  type CaseReport,
  type CaseVariantReport,
  type Delta,
  type EvalReport,
  type TrialReport,
  type VariantReport,
} from './report.js';
export { type EvalProgress, type RecordingsOptions, type RunEvalOptions, runEval } from './run-eval.js';
export { type Metric, scoreTrial, type TrialScores } from './score.js';
export { attributionScorer, sumAttributions } from './scorers/attribution.js';
export { BUILT_IN_SCORERS } from './scorers/index.js';
export { type JudgeOptions, judgeRequest, judgeScorer, parseJudgement } from './scorers/judge.js';
export { scoreSelection, selectionScorer } from './scorers/selection.js';
export { scoreSubagents, subagentScorer } from './scorers/subagents.js';
export { runChecks, scoreSuccess, successScorer } from './scorers/success.js';
export { scoreToolCalls, toolCallScorer } from './scorers/tool-calls.js';
export { costScorer, latencyScorer, stepsScorer, tokensScorer, trialCost } from './scorers/usage.js';
export { acrossCases, type Stat, stat } from './stats.js';
export { formatTable, TABLE_METRICS, type TableOptions } from './table.js';
export { checkThresholds, parseThreshold, type ThresholdResult, thresholdText } from './thresholds.js';
export { runTrial, type TrialSpec } from './trial.js';
export type {
  AgentChoice,
  CallStatus,
  EvalCase,
  EvalExpectations,
  EvalFile,
  EvalMessage,
  EvalSessionOptions,
  EvalSuite,
  EvalVariant,
  ExpectedToolCall,
  Matcher,
  MetricSpec,
  ModelChoice,
  ModelContext,
  Scorer,
  ScorerOutput,
  ScoreValue,
  SkillRead,
  StoreRule,
  SubagentRunRecord,
  TextRule,
  Threshold,
  ToolCallRecord,
  TrialError,
  TrialResult,
  WaitingAnswer,
  WaitingAnswers,
} from './types.js';
export { writeReport } from './write.js';
