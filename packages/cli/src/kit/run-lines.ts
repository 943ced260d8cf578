/**
 * Subagent runs as lines under the call that spawned them: the run's start, its tool calls and
 * results, its replies and how it ended, each indented one level deeper than the call, so a run
 * inside a run reads as a tree. The reply text of a run is printed whole once its step ends (never
 * streamed: runs that go on at once would interleave their deltas).
 */
import { ownTextOf, type SessionEvent, type SubagentRun } from '@skilltree/core';
import { compact, compactJson, type Style } from './print.js';

/** Options of {@link createRunLines}. */
export interface RunLinesOptions {
  style: Style;
  /** Print replies and results whole instead of cut to one line. */
  verbose?: boolean;
}

/** Turns subagent events into the lines to print. */
export interface RunLines {
  /** The lines `event` prints (none for an event that is not a run's). */
  lines(event: SessionEvent): string[];
}

/** Tokens a run used, input and output together, as `1,234 tokens`. */
function tokensOf(run: SubagentRun): string | null {
  const total = (run.usage?.inputTokens ?? 0) + (run.usage?.outputTokens ?? 0);
  return total > 0 ? `${total.toLocaleString('en-US')} tokens${run.usage?.estimated ? ' (estimated)' : ''}` : null;
}

/**
 * Creates the line maker. A run at depth `d` (1 for a run the agent spawned) prints its start and end
 * at `4d` spaces, under the call's `⚙` line, and its own calls two spaces deeper.
 */
export function createRunLines(options: RunLinesOptions): RunLines {
  const { style, verbose = false } = options;
  const depths = new Map<string, number>();
  const pad = (depth: number, extra = 0) => ' '.repeat(4 * depth + extra);
  const lines = (event: SessionEvent): string[] => {
    switch (event.type) {
      case 'subagent-start': {
        const { run } = event;
        depths.set(run.id, run.depth);
        const model = run.context === 'fork' ? 'fork' : 'isolated';
        return [style.dim(`${pad(run.depth)}▸ ${run.name} started (${model})`)];
      }
      case 'subagent-finish': {
        const { run } = event;
        const tokens = tokensOf(run);
        const tail = tokens ? style.dim(` · ${tokens}`) : '';
        if (run.status === 'done') return [`${style.dim(`${pad(run.depth)}◂ ${run.name} done`)}${tail}`];
        const why = run.error ? `: ${verbose ? run.error : compact(run.error, 100)}` : '';
        return [`${pad(run.depth)}${style.red('✗')}${style.dim(` ${run.name} ${run.status}${why}`)}${tail}`];
      }
      case 'subagent-event':
        return inner(event.runId, event.name, event.event);
      default:
        return [];
    }
  };
  const inner = (runId: string, name: string, event: SessionEvent): string[] => {
    if (event.type === 'subagent-start' || event.type === 'subagent-finish' || event.type === 'subagent-event') {
      return lines(event);
    }
    const depth = depths.get(runId) ?? 1;
    switch (event.type) {
      case 'tool-call':
        return [style.dim(`${pad(depth, 2)}⚙ ${event.toolCall.name} ${compactJson(event.toolCall.input)}`)];
      case 'tool-result': {
        const text = ownTextOf(event.message);
        const body = (verbose ? text.trim() : compact(text, 100)) || '(empty)';
        const mark = event.message.isError ? style.red('✗') : '↳';
        return [`${style.dim(pad(depth, 4))}${mark}${style.dim(` ${body}`)}`];
      }
      case 'message': {
        if (event.message.role !== 'assistant') return [];
        const text = ownTextOf(event.message).trim();
        if (text === '') return [];
        return [style.dim(`${pad(depth, 2)}${name} › ${verbose ? text : compact(text, 100)}`)];
      }
      case 'waiting':
        return event.calls
          .filter((call) => call.status === 'waiting')
          .map((call) =>
            style.dim(
              `${pad(depth, 2)}⏸ ${call.name} ${compactJson(call.input)} waits for ${call.for === 'approval' ? 'approval' : 'the client'}`,
            ),
          );
      case 'skill-loaded':
        return [style.dim(`${pad(depth, 2)}+ skill ${event.name} loaded`)];
      case 'skill-unloaded':
        return [style.dim(`${pad(depth, 2)}− skill ${event.name} unloaded`)];
      default:
        return [];
    }
  };
  return { lines };
}
