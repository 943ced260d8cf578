/**
 * A skilltree transcript as the AI SDK's `UIMessage[]`: what `GET /chat/:id` answers, and the shape
 * the live stream builds on the client. Tool results and context changes show through the same
 * mapping the streams use (`ui-parts.ts`), so a page reloaded after a turn shows exactly what it
 * showed while the turn streamed.
 */
import {
  type ContextChange,
  contextChangesOf,
  type Message,
  type SubagentRun,
  type WaitingCall,
} from '@skilltree/core';
import { type FilePart, renderParts, unreadableRecord } from '@skilltree/core/provider';
import { approvalIdOf } from './approval-id.js';
import { runsUnder, subagentPart, waitsInRuns } from './subagent-parts.js';
import { defaultToolErrorText, type ToolErrorText } from './tool-errors.js';
import {
  changeParts,
  interruptedOutcome,
  outcomePart,
  type SkilltreeUIMessage,
  type SkilltreeUIPart,
  toolOutcome,
  unshownPart,
} from './ui-parts.js';

export { changeParts, type SkilltreeDataParts, type SkilltreeUIMessage, type SkilltreeUIPart } from './ui-parts.js';

/** A file part as the UI's file part: its bytes as a data URL, or its URL. */
export function fileUIPart(part: FilePart): SkilltreeUIPart {
  const url = part.url ?? `data:${part.mediaType};base64,${part.data ?? ''}`;
  return { type: 'file', mediaType: part.mediaType, url, ...(part.filename ? { filename: part.filename } : {}) };
}

/**
 * A user message's text and file parts, in order (its `contextChanged` lines are data parts
 * elsewhere). With `fileUrl`, a file kept as bytes is given as that URL (index of the part in the
 * message's content) instead of a data URL.
 */
function userParts(message: Message, fileUrl?: (part: number) => string): SkilltreeUIPart[] {
  const parts: SkilltreeUIPart[] = [];
  for (const part of renderParts(message.content.filter((p) => p.type !== 'context-changed'))) {
    if (part.type === 'text') {
      parts.push({ type: 'text', text: part.text });
      continue;
    }
    const at = (message.content as readonly unknown[]).indexOf(part);
    parts.push(
      fileUrl && part.data && at !== -1 ? fileUIPart({ ...part, data: undefined, url: fileUrl(at) }) : fileUIPart(part),
    );
  }
  return parts.length > 0 ? parts : [{ type: 'text', text: '' }];
}

/** Options of {@link toUIMessages}. */
export interface ToUIMessagesOptions {
  /** The index of `messages[0]` in the whole transcript; message ids are `m<index>`. Default 0. */
  start?: number;
  /**
   * The text a part shows for a tool's error result. Default: the text itself when it is meant for end
   * users (`isToolErrorForUsers`), else a sentence that names the tool (the transcript keeps the text).
   */
  toolErrorText?: ToolErrorText;
  /**
   * Calls that wait for approval (`sessions.get(id).waiting`): their parts are `approval-requested`,
   * so a reloaded page can answer them, with an approval id that names the chat's incarnation (the
   * call's `incarnation`) and the call, which `POST /chat` checks. Default: none.
   */
  waiting?: readonly WaitingCall[];
  /**
   * True when no turn of the chat runs (`sessions.get(id).running` is null). A call with no result
   * that does not wait was then cut off by a process that stopped (a crash mid-tool): it shows as
   * `output-error` with core's `INTERRUPTED_RESULT`, as the chat's next turn records it, never as
   * pending. Default false: such a call shows as `input-available` (its tool is running).
   */
  idle?: boolean;
  /** Whether reasoning is shown (its text only; never a signature or encrypted content). Default true. */
  sendReasoning?: boolean;
  /**
   * The URL a user's file is served at, by the message's index in the whole transcript and the
   * part's index in its content (`createHandler` serves `GET /chat/:id/files/:message-:part` under the
   * chat's owner check). Default: none, files are data URLs.
   */
  fileUrl?: (message: number, part: number) => string;
  /**
   * The chat's subagent runs (`sessions.subagentRuns(id)`): each shows as a `data-subagent` part
   * right after the tool part of the call that spawned it, followed by the runs it spawned. Default:
   * none.
   */
  subagentRuns?: readonly SubagentRun[];
}

/**
 * Converts transcript messages (oldest first, starting at a user message) to `UIMessage[]`: each user
 * message becomes a user message with one text part; the assistant and tool messages up to the next
 * user message become one assistant message with a `step-start` part per model call, its text, a
 * `dynamic-tool` part per call (`output-available`, or `output-error` when the result is an error,
 * with the text `toolErrorText` gives), and data parts for the `contextChanged` lines each result
 * recorded. Lines recorded with a user message open the assistant message that answers it.
 *
 * @example
 * const messages = await sessions.messages('chat-1', { limit: 1000, owner: 'user-42' });
 * const ui = toUIMessages(messages);
 */
export function toUIMessages(messages: readonly Message[], options: ToUIMessagesOptions = {}): SkilltreeUIMessage[] {
  const start = options.start ?? 0;
  const errorText = options.toolErrorText ?? defaultToolErrorText;
  const out: SkilltreeUIMessage[] = [];
  let assistant: SkilltreeUIMessage | null = null;
  /** Context changes of the last user message, for the assistant message that follows. */
  let carried: ContextChange[] = [];
  /** Calls of the current step that have no result yet, in order. */
  let pending: { id: string; name: string; input: unknown }[] = [];

  const approvals = new Map(
    (options.waiting ?? [])
      .filter((w) => w.for === 'approval' && w.status !== 'running')
      .map((w) => [w.toolCallId, approvalIdOf(w)]),
  );
  // An approved call whose tool runs waits for nothing more: running while a turn runs, else interrupted.
  const waits = new Set((options.waiting ?? []).filter((w) => w.status !== 'running').map((w) => w.toolCallId));
  const runs = options.subagentRuns ?? [];
  // A call that waits inside a run asks on the tool part of the call whose run holds it: that call
  // waits too (never interrupted), and its part carries the approval of the call inside.
  for (const [top, inner] of waitsInRuns(options.waiting ?? [], runs)) {
    const ask = inner.find((w) => w.for === 'approval' && w.status === 'waiting');
    if (ask && !approvals.has(top)) approvals.set(top, approvalIdOf(ask));
    if (inner.some((w) => w.status !== 'running')) waits.add(top);
  }
  /** The runs a call spawned, after its tool part. */
  const runParts = (target: SkilltreeUIMessage, callId: string) => {
    if (runs.length === 0) return;
    for (const run of runsUnder(runs, [callId])) target.parts.push(subagentPart(run, errorText));
  };
  const flushPending = () => {
    if (!assistant) return;
    for (const call of pending) {
      const approval = approvals.get(call.id);
      assistant.parts.push(
        approval !== undefined
          ? {
              type: 'dynamic-tool',
              toolName: call.name,
              toolCallId: call.id,
              state: 'approval-requested',
              input: call.input,
              approval: { id: approval },
            }
          : options.idle && !waits.has(call.id)
            ? // No turn runs and it waits for nothing: the process running it stopped.
              outcomePart(call, interruptedOutcome(call.name, call.id, errorText))
            : {
                type: 'dynamic-tool',
                toolName: call.name,
                toolCallId: call.id,
                state: 'input-available',
                input: call.input,
              },
      );
      runParts(assistant, call.id);
    }
    pending = [];
  };
  const open = (index: number): SkilltreeUIMessage => {
    if (assistant) return assistant;
    assistant = { id: `m${start + index}`, role: 'assistant', parts: changeParts(carried) };
    carried = [];
    out.push(assistant);
    return assistant;
  };

  messages.forEach((message, index) => {
    // A stored record that could not be read shows as its sentence, and says which one it was.
    const bad = unreadableRecord(message);
    const report = (ui: SkilltreeUIMessage) => {
      if (bad) ui.parts.push({ type: 'data-unreadable-record', data: { ...bad } });
    };
    if (message.role === 'user') {
      flushPending();
      if (carried.length > 0) open(index);
      const fileUrl = options.fileUrl;
      out.push({
        id: `m${start + index}`,
        role: 'user',
        parts: userParts(message, fileUrl ? (part) => fileUrl(start + index, part) : undefined),
      });
      report(out[out.length - 1]);
      assistant = null;
      carried = contextChangesOf(message);
      return;
    }
    const target = open(index);
    report(target);
    if (message.role === 'assistant') {
      flushPending();
      target.parts.push({ type: 'step-start' });
      for (const part of message.content) {
        if (part.type === 'reasoning') {
          // The readable text only: signatures and encrypted reasoning never reach a browser.
          if (options.sendReasoning !== false && part.text)
            target.parts.push({ type: 'reasoning', text: part.text, state: 'done' });
        } else if (part.type === 'text') {
          if (part.text !== '') target.parts.push({ type: 'text', text: part.text, state: 'done' });
        } else unshownPart(part);
      }
      pending = (message.toolCalls ?? []).map((call) => ({ id: call.id, name: call.name, input: call.input }));
      return;
    }
    const at = pending.findIndex((call) => call.id === message.toolCallId);
    const call = at === -1 ? { id: message.toolCallId, name: message.name, input: undefined } : pending[at];
    if (at !== -1) pending.splice(at, 1);
    target.parts.push(outcomePart(call, toolOutcome(message, errorText)));
    runParts(target, call.id);
    target.parts.push(...changeParts(contextChangesOf(message)));
  });
  flushPending();
  if (carried.length > 0) {
    out.push({ id: `m${start + messages.length}`, role: 'assistant', parts: changeParts(carried) });
  }
  return out;
}
