/**
 * Answering calls that wait inside runs (SPEC §19, §17): each waiting run of this state whose calls
 * the answers name is mounted again from its kept state (in any process), goes on with the answers,
 * and ends (its result is the parent's call's result) or waits again.
 */
import { subagentOf } from '../host/subagent.js';
import { runSelf, runsOf } from '../state/runs.js';
import { type SessionState, tree } from '../state/state.js';
import { RunWaits } from '../turn/run-waits.js';
import { resultText } from '../turn/tool-call.js';
import type { ToolCall } from '../types/messages.js';
import type { ModelRequest } from '../types/request.js';
import type { SessionSnapshot, ToolAnswer, WaitingCall } from '../types/session.js';
import { drive } from './run.js';
import { runWaitingIds } from './run-state.js';

/** How a resumed run went on. */
export type Resumed = { waits: WaitingCall[] } | { call: ToolCall; content: string; isError: boolean };

/** Resumes the waiting runs `state` spawned whose calls `answers` answer, each once, in the order they were spawned. */
export async function resumeRuns(
  state: SessionState,
  answers: readonly ToolAnswer[],
  signal: AbortSignal,
  install: (child: SessionState) => void,
): Promise<Resumed[]> {
  const own = runSelf(state)?.run.id;
  const out: Resumed[] = [];
  for (const run of runsOf(state)) {
    if (run.status !== 'waiting' || run.parentRunId !== own) continue;
    const ids = runWaitingIds(run);
    const mine = answers.filter((a) => ids.includes(a.toolCallId));
    if (mine.length === 0) continue;
    const call: ToolCall = { id: run.toolCallId, name: run.name, input: {} };
    const tool = tree(state).toolsByName.get(run.name);
    const props = tool && subagentOf(tool.node.props);
    if (!props || !run.state) {
      run.status = 'failed';
      run.error = `Subagent "${run.name}" cannot go on: it is not rendered now (is the skill that renders it still loaded?).`;
      delete run.state;
      out.push({ call, content: `Tool "${run.name}" failed: ${run.error}`, isError: true });
      continue;
    }
    const restore = run.state.snapshot as SessionSnapshot;
    const fork = (run.state.fork as ModelRequest | undefined) ?? null;
    try {
      const value = await drive({ self: { run, parent: state, fork }, props, input: mine, restore }, signal, install);
      out.push(
        value instanceof RunWaits ? { waits: value.calls } : { call, content: resultText(value), isError: false },
      );
    } catch (error) {
      out.push({ call, content: `Tool "${run.name}" failed: ${(error as Error).message}`, isError: true });
    }
  }
  return out;
}
