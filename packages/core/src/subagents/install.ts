/**
 * Gives a session's tree its subagent runner: a `<Subagent>` call runs through `runSubagent`, and the
 * subagent calls of one step start together (bounded by `subagentConcurrency`) while the loop records
 * their results in call order; in a durable turn they run as the lanes of a round (`rounds.ts`), so
 * their steps start in an order that replays. Says, when the session is made, that a fork cannot keep the parent's
 * prefix with a model outside the append-only table.
 */
import { type SubagentProps, subagentOf } from '../host/subagent.js';
import { isAppendOnly } from '../request/append-only.js';
import { warn } from '../state/events.js';
import { type SessionState, tree } from '../state/state.js';
import { parseInput } from '../turn/tool-call.js';
import type { ToolCall } from '../types/messages.js';
import { boundOf } from './limit.js';
import { resumeRuns } from './resume.js';
import { openRound } from './rounds.js';
import { runSubagent } from './run.js';

/** Runs started ahead of the loop, by tool call id, until the call's `run` takes them. */
const started = new WeakMap<SessionState, Map<string, Promise<unknown>>>();

/** Warns (once) when a fork subagent's model cannot start from the parent's request byte for byte. */
function checkFork(state: SessionState, props: SubagentProps): void {
  if (props.context !== 'fork') return;
  const model = props.model ?? state.options.model;
  if (isAppendOnly(state) && (!props.model || props.model.appendOnly === true)) return;
  warn(
    state,
    `Subagent "${props.name}" has context="fork", but model "${model?.name ?? 'none'}" is outside the append-only table (see docs/models.md): its runs read the parent's conversation under their own system prompt and tools, so a provider's cache cannot read the parent's prefix. Use a model the table lists, or context="isolated".`,
    'subagents',
  );
}

/** Makes `<Subagent>` calls in `state`'s tree run, and checks the forks it renders now. */
export function installRunner(state: SessionState): void {
  const runtime = state.runtime;
  runtime.spawn = (raw, input, toolCallId, signal) => {
    const ahead = started.get(state)?.get(toolCallId);
    if (ahead) {
      started.get(state)?.delete(toolCallId);
      return ahead;
    }
    const props = raw as unknown as SubagentProps;
    checkFork(state, props);
    return runSubagent(state, props, input, toolCallId, signal, installRunner);
  };
  runtime.prestart = (calls, signal, starting) => prestart(state, calls, signal, starting);
  runtime.resume = (answers, signal) => resumeRuns(state, answers, signal, installRunner);
  for (const tool of tree(state).tools) {
    const props = subagentOf(tool.node.props);
    if (props) checkFork(state, props);
  }
}

/**
 * Starts the runs of a step's subagent calls together, when it has more than one; `starting` is
 * told of each call first (its `execute_tool` span opens, the parent of the run's span).
 */
function prestart(
  state: SessionState,
  calls: readonly ToolCall[],
  signal: AbortSignal,
  starting?: (call: ToolCall) => void,
): void {
  const snap = tree(state);
  const subagents = calls.filter((call) => {
    const tool = snap.toolsByName.get(call.name);
    return tool !== undefined && subagentOf(tool.node.props) !== undefined;
  });
  if (subagents.length < 2) return;
  let map = started.get(state);
  if (!map) {
    map = new Map();
    started.set(state, map);
  }
  const ahead = map;
  // In a durable turn, each run is a lane of a round: its steps start in cursor order.
  const lanes = openRound(
    state,
    subagents.map((call) => call.id),
    boundOf(state),
    signal,
  );
  // The runs are created in call order (their records, their ids), whatever their input's checks take.
  let previous: Promise<unknown> = Promise.resolve();
  for (const call of subagents) {
    const tool = snap.toolsByName.get(call.name);
    const props = tool && subagentOf(tool.node.props);
    const lane = lanes?.get(call.id);
    if (!tool || !props) {
      lane?.end();
      continue;
    }
    starting?.(call);
    // Input the tool's schema refuses is left to the call, which records the refusal.
    const parsed = parseInput(tool, call.input);
    const turn = lane ? previous.then(() => parsed) : parsed;
    const run = turn.then((given) => {
      if (typeof given === 'string') throw new Error(given);
      checkFork(state, props);
      return runSubagent(state, props, given.input, call.id, signal, installRunner, lane);
    });
    // A lane ends when its run does: it starts no more steps.
    if (lane) {
      previous = turn.catch(() => {});
      run.then(
        () => lane.end(),
        (error: unknown) => lane.end(error),
      );
    }
    run.catch(() => {});
    ahead.set(call.id, run);
  }
}
