/**
 * A subagent run as the page shows it: one `data-subagent` part per run, whose id is the run's id, so
 * the AI SDK's data-part reconciliation replaces it in place each time the run moves on (its text, its
 * tool calls, its status). The live stream builds it from the run's events; `GET /chat/:id` and the
 * resumed stream build it from the run as the store keeps it; a finished run's live part is rebuilt
 * from its kept transcript, so the page shows a run the same way while it streams and after a reload.
 * The run's result reaches the page as the output of the parent's tool part (the tool message core
 * records for the call), as for any tool.
 */
import type { Message, SessionEvent, SubagentRun, Usage, WaitingCall } from '@skilltree/core';
import { addUsage } from '@skilltree/core/provider';
import type { SubagentUIData, SubagentUIItem, SubagentUIPart, SubagentUITool } from './subagent-data.js';
import type { ToolErrorText } from './tool-errors.js';
import { toolError } from './tool-errors.js';
import { toolOutcome } from './ui-parts.js';

export type { SubagentUIData, SubagentUIItem, SubagentUIPart, SubagentUITool } from './subagent-data.js';

/**
 * The error an end user may read for a failed or stopped run: the text core wrote when it says only
 * that the run was stopped; anything else (a model's or a tool's failure, which may carry what the
 * server knows) goes through `errorText`, as a tool's error result does.
 */
function runError(run: SubagentRun, errorText: ToolErrorText): string | undefined {
  if (run.error === undefined) return undefined;
  const kind = run.status === 'aborted' ? 'not-run' : 'threw';
  return errorText(toolError(run.error, run.name, run.toolCallId, kind));
}

/** The items of a run's transcript: each assistant message's text, then its calls with their outcomes. */
export function runItems(transcript: readonly Message[], errorText: ToolErrorText): SubagentUIItem[] {
  const items: SubagentUIItem[] = [];
  const calls = new Map<string, SubagentUITool>();
  for (const message of transcript) {
    if (message.role === 'assistant') {
      const text = message.content.map((part) => (part.type === 'text' ? part.text : '')).join('');
      if (text !== '') items.push({ type: 'text', text });
      for (const call of message.toolCalls ?? []) {
        const item: SubagentUITool = {
          type: 'tool',
          toolCallId: call.id,
          toolName: call.name,
          input: call.input,
          state: 'input-available',
        };
        calls.set(call.id, item);
        items.push(item);
      }
    } else if (message.role === 'tool') {
      const item = calls.get(message.toolCallId);
      if (item) settle(item, toolOutcome(message, errorText));
    }
  }
  return items;
}

/** Puts a call's outcome on its item. */
function settle(item: SubagentUITool, outcome: ReturnType<typeof toolOutcome>): void {
  item.state = outcome.state;
  if (outcome.state === 'output-available') {
    item.output = outcome.output;
    delete item.errorText;
  } else {
    item.errorText = outcome.errorText;
    delete item.output;
  }
}

/** The `data-subagent` part of `run` as the store keeps it (history, resumed streams, a finished run). */
export function subagentPart(run: SubagentRun, errorText: ToolErrorText): SubagentUIPart {
  const error = runError(run, errorText);
  const data: SubagentUIData = {
    name: run.name,
    toolCallId: run.toolCallId,
    ...(run.parentRunId !== undefined ? { parentRunId: run.parentRunId } : {}),
    depth: run.depth,
    context: run.context,
    status: run.status,
    items: runItems(run.transcript ?? [], errorText),
    ...(hasUsage(run.usage) ? { usage: run.usage } : {}),
    ...(error !== undefined ? { error } : {}),
  };
  return { type: 'data-subagent', id: run.id, data };
}

const hasUsage = (usage: Usage | undefined): usage is Usage =>
  usage !== undefined && Object.values(usage).some((v) => v !== undefined && v !== 0 && v !== false);

/**
 * The runs to show under the calls `callIds` (a message's tool parts), each followed by the runs it
 * spawned, depth first: the order a page builds the tree in.
 */
export function runsUnder(runs: readonly SubagentRun[], callIds: Iterable<string>): SubagentRun[] {
  const out: SubagentRun[] = [];
  const add = (run: SubagentRun, seen: Set<string>) => {
    if (seen.has(run.id)) return;
    seen.add(run.id);
    out.push(run);
    for (const child of runs) if (child.parentRunId === run.id) add(child, seen);
  };
  const seen = new Set<string>();
  for (const id of callIds) {
    for (const run of runs) if (run.parentRunId === undefined && run.toolCallId === id) add(run, seen);
  }
  return out;
}

/**
 * The parent's call a call inside a run belongs to: the call that spawned the run it was made in,
 * or, for a run inside a run, the call that spawned the outermost one. Undefined for a call no run
 * of `runs` made (an agent's own call).
 */
export function topCallOf(runs: readonly SubagentRun[], innerCallId: string): string | undefined {
  const byId = new Map(runs.map((run) => [run.id, run]));
  let run = runs.find((r) =>
    r.transcript.some((m) => m.role === 'assistant' && (m.toolCalls ?? []).some((c) => c.id === innerCallId)),
  );
  for (let hops = 0; run?.parentRunId !== undefined && hops < runs.length; hops++) {
    const parent = byId.get(run.parentRunId);
    if (!parent) break;
    run = parent;
  }
  return run?.toolCallId;
}

/**
 * The calls waiting inside runs, by the parent's call whose run holds them: the page shows and
 * answers them on that call's tool part (its run's part shows which call inside waits).
 */
export function waitsInRuns(waiting: readonly WaitingCall[], runs: readonly SubagentRun[]): Map<string, WaitingCall[]> {
  const out = new Map<string, WaitingCall[]>();
  for (const call of waiting) {
    if (!call.path || call.path.length < 2) continue;
    const top = topCallOf(runs, call.toolCallId);
    if (top === undefined) continue;
    out.set(top, [...(out.get(top) ?? []), call]);
  }
  return out;
}

/** Text a run streams that is sent before the next event (so long replies do not resend the part per delta). */
const TEXT_FLUSH_CHARS = 256;

/**
 * Follows the subagent events of a turn and says which `data-subagent` parts to write: the whole part
 * of a run each time it changed (the client replaces it in place). Text deltas are sent in runs of
 * {@link TEXT_FLUSH_CHARS} characters or at the run's next event, whichever comes first.
 */
export class SubagentTracker {
  private readonly runs = new Map<string, SubagentUIPart>();
  /** Runs whose part changed since it was last written. */
  private readonly dirty = new Set<string>();
  /** Characters of text a run streamed since its part was last written. */
  private readonly unsent = new Map<string, number>();
  /** Per run, whether its next text delta opens a new text item (a new step, or after a call). */
  private readonly newText = new Set<string>();

  /** `started`: runs an earlier stream started (an answer that continues a run that waited). */
  constructor(
    private readonly errorText: ToolErrorText,
    started: readonly SubagentRun[] = [],
  ) {
    for (const run of started) this.runs.set(run.id, subagentPart(run, errorText));
  }

  /** The parent's call whose run (or a run inside it) made call `innerCallId`, among the runs seen. */
  topCallOf(innerCallId: string): string | undefined {
    let part = [...this.runs.values()].find((p) => findCall(p.data.items, innerCallId) !== undefined);
    for (let hops = 0; part?.data.parentRunId !== undefined && hops < this.runs.size; hops++) {
      const parent = this.runs.get(part.data.parentRunId);
      if (!parent) break;
      part = parent;
    }
    return part?.data.toolCallId;
  }

  /** The runs seen so far, by id. */
  get ids(): string[] {
    return [...this.runs.keys()];
  }

  /**
   * Takes one event of the parent's turn. Returns the parts to write now (none for events that are
   * not a run's, except that a run's unsent text goes out before the parent's next event).
   */
  event(event: SessionEvent): SubagentUIPart[] {
    switch (event.type) {
      case 'subagent-start':
      case 'subagent-finish': {
        const part = subagentPart(event.run, this.errorText);
        this.runs.set(part.id, part);
        this.newText.add(part.id);
        this.dirty.add(part.id);
        return this.flush();
      }
      case 'subagent-event':
        return this.inner(event.runId, event.event);
      default:
        return this.flush();
    }
  }

  /** An event of run `runId`: its own (text, calls, results, waiting), or a run it spawned. */
  private inner(runId: string, event: SessionEvent): SubagentUIPart[] {
    if (event.type === 'subagent-start' || event.type === 'subagent-finish' || event.type === 'subagent-event') {
      return this.event(event);
    }
    const part = this.runs.get(runId);
    if (!part) return [];
    const items = part.data.items;
    switch (event.type) {
      case 'request':
        this.newText.add(runId);
        return [];
      case 'text-delta': {
        if (event.text === '') return [];
        const last = items[items.length - 1];
        if (last?.type === 'text' && !this.newText.has(runId)) last.text += event.text;
        else items.push({ type: 'text', text: event.text });
        this.newText.delete(runId);
        this.dirty.add(runId);
        const unsent = (this.unsent.get(runId) ?? 0) + event.text.length;
        this.unsent.set(runId, unsent);
        return unsent >= TEXT_FLUSH_CHARS ? this.flush() : [];
      }
      case 'tool-call':
        // A call already shown (a run's kept transcript carries it) is not shown twice.
        if (!findCall(items, event.toolCall.id)) {
          items.push({
            type: 'tool',
            toolCallId: event.toolCall.id,
            toolName: event.toolCall.name,
            input: event.toolCall.input,
            state: 'input-available',
          });
        }
        this.newText.add(runId);
        this.dirty.add(runId);
        return this.flush();
      case 'tool-result': {
        const item = findCall(items, event.message.toolCallId);
        if (item) {
          settle(item, toolOutcome(event.message, this.errorText));
          this.dirty.add(runId);
        }
        return this.flush();
      }
      case 'waiting': {
        for (const call of event.calls) {
          const item = findCall(items, call.toolCallId);
          if (!item || item.state === 'output-available' || item.state === 'output-error') continue;
          item.state = call.for === 'approval' && call.status === 'waiting' ? 'approval-requested' : 'input-available';
          this.dirty.add(runId);
        }
        if (part.data.status === 'running' && event.calls.some((c) => c.status === 'waiting')) {
          part.data.status = 'waiting';
          this.dirty.add(runId);
        }
        return this.flush();
      }
      case 'step-finish':
        if (event.usage) {
          part.data.usage = addUsage(part.data.usage, event.usage);
          this.dirty.add(runId);
        }
        return this.flush();
      default:
        return this.flush();
    }
  }

  /** The parts that changed since they were written, in the order the runs started. */
  flush(): SubagentUIPart[] {
    if (this.dirty.size === 0) return [];
    const out: SubagentUIPart[] = [];
    for (const [id, part] of this.runs) {
      if (!this.dirty.has(id)) continue;
      // A copy: the part keeps changing after it is written.
      out.push(structuredClone(part));
    }
    this.dirty.clear();
    this.unsent.clear();
    return out;
  }
}

function findCall(items: readonly SubagentUIItem[], id: string): SubagentUITool | undefined {
  for (const item of items) if (item.type === 'tool' && item.toolCallId === id) return item;
  return undefined;
}
