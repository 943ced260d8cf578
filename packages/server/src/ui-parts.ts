/**
 * The one mapping from skilltree's records to the AI SDK's UI message parts: how a tool result
 * shows (its output, or its error text) and how context changes show (data parts). The live stream
 * (`chat-stream.ts`), the resumed stream (`resume.ts`) and the history `GET /chat/:id` answers
 * (`ui-messages.ts`) all build their parts and chunks here, so a page shows a turn the same way
 * while it streams, after a reload mid-turn and after the turn.
 */
import { type ContextChange, ownTextOf, type ToolMessage } from '@skilltree/core';
import { contextChangeLine } from '@skilltree/core/provider';
import type { InferUIMessageChunk, UIMessage } from 'ai';
import type { SubagentUIData } from './subagent-data.js';
import { interruptedError, type ToolErrorText, toolError } from './tool-errors.js';

/**
 * The `data-*` parts a skilltree chat carries, by name (the AI SDK's `UIDataTypes`):
 * - `skill-loaded` / `skill-unloaded`: a skill entered or left the model's context;
 * - `context-changed`: the lines the context gained that a tool call (or the user's message)
 *   recorded, as the `contextChanged … added:` lines the model reads (display text: read a load or
 *   an unload from its own part, never from a line);
 * - `unreadable-record`: a stored message that could not be read (a record edited by hand), by chat
 *   and index in the whole transcript, and what is wrong with it: the message shows as a sentence
 *   that says so, and the chat goes on;
 * - `subagent`: one run of a `<Subagent>` (its text, tool calls, status, usage), one part per run
 *   whose id is the run's id, replaced in place as the run moves on; a run the agent spawned follows
 *   the tool part of its call, a run spawned inside a run names it (`parentRunId`).
 */
export type SkilltreeDataParts = {
  'skill-loaded': { name: string };
  'skill-unloaded': { name: string };
  'context-changed': { lines: string[] };
  'unreadable-record': { chat: string; index: number; reason: string };
  subagent: SubagentUIData;
};

/** A `UIMessage` of a skilltree chat: text, `dynamic-tool` parts, `step-start` parts and {@link SkilltreeDataParts}. */
export type SkilltreeUIMessage = UIMessage<unknown, SkilltreeDataParts>;

/** One part of a {@link SkilltreeUIMessage}. */
export type SkilltreeUIPart = SkilltreeUIMessage['parts'][number];

/** A chunk of a skilltree chat's UI message stream. */
export type SkilltreeUIChunk = InferUIMessageChunk<SkilltreeUIMessage>;

/** How a finished tool call shows: the output the model got, or the error text the client may see. */
export type ToolOutcome = { state: 'output-available'; output: string } | { state: 'output-error'; errorText: string };

/** A call as its tool part names it. */
export interface ShownCall {
  id: string;
  name: string;
  input: unknown;
}

/**
 * How a tool's result shows: its text (without the context changes recorded with it) as the output,
 * or, for an error result, the text `errorText` gives for it.
 */
export function toolOutcome(message: ToolMessage, errorText: ToolErrorText): ToolOutcome {
  const text = ownTextOf(message);
  return message.isError
    ? {
        state: 'output-error',
        errorText: errorText(toolError(text, message.name, message.toolCallId, message.errorKind)),
      }
    : { state: 'output-available', output: text };
}

/** How a call shows whose process stopped before its result was saved (see core's `INTERRUPTED_RESULT`). */
export function interruptedOutcome(name: string, id: string, errorText: ToolErrorText): ToolOutcome {
  return { state: 'output-error', errorText: errorText(interruptedError(name, id)) };
}

/** The stream chunk that finishes call `toolCallId` with `outcome`. */
export function outcomeChunk(toolCallId: string, outcome: ToolOutcome): SkilltreeUIChunk {
  return outcome.state === 'output-error'
    ? { type: 'tool-output-error', toolCallId, errorText: outcome.errorText, dynamic: true }
    : { type: 'tool-output-available', toolCallId, output: outcome.output, dynamic: true };
}

/** The finished tool part of `call` with `outcome` (what the chunks of {@link outcomeChunk} build on a client). */
export function outcomePart(call: ShownCall, outcome: ToolOutcome): SkilltreeUIPart {
  const base = { type: 'dynamic-tool', toolName: call.name, toolCallId: call.id, input: call.input } as const;
  return outcome.state === 'output-error'
    ? { ...base, state: 'output-error', errorText: outcome.errorText }
    : { ...base, state: 'output-available', output: outcome.output };
}

/**
 * The data parts for a message's context changes, in order: each load or unload as its own typed
 * part, and each run of lines the context gained as one `data-context-changed` part. Reads each
 * change's `kind`; the lines are core's rendering of them (`contextChangeLine`).
 *
 * @example
 * changeParts([{ kind: 'loaded', skill: 'notes' }, { kind: 'line', skill: 'notes', text: 'Notes: milk' }]);
 * // [{ type: 'data-skill-loaded', data: { name: 'notes' } },
 * //  { type: 'data-context-changed', data: { lines: ['contextChanged notes added: Notes: milk'] } }]
 */
export function changeParts(changes: readonly ContextChange[]): SkilltreeUIPart[] {
  const parts: SkilltreeUIPart[] = [];
  let added: string[] = [];
  const flush = () => {
    if (added.length > 0) parts.push({ type: 'data-context-changed', data: { lines: added } });
    added = [];
  };
  for (const change of changes) {
    if (change.kind === 'line') {
      added.push(contextChangeLine(change));
      continue;
    }
    flush();
    parts.push({ type: `data-skill-${change.kind}`, data: { name: change.skill } });
  }
  flush();
  return parts;
}

/** {@link changeParts} as stream chunks (a data part is its own chunk). */
export function changeChunks(changes: readonly ContextChange[]): SkilltreeUIChunk[] {
  return changeParts(changes) as SkilltreeUIChunk[];
}

/**
 * Where a walk over an assistant message's parts has mapped every kind it knows: `part` is `never`
 * there, so a kind added to core's `AssistantPart` fails to compile at each walk (`chunksOf` in
 * `resume.ts`, `toUIMessages`) until it is shown, even when it has a `text` field a walk would
 * otherwise take for text. At run time a part never gets here (records are checked on read).
 */
export function unshownPart(_part: never): void {}
