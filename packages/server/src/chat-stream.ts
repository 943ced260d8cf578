/**
 * One turn's session events as the AI SDK UI message stream: `start`, a `start-step`/`finish-step`
 * pair per model call, text parts, `dynamic-tool` parts (input, then output or error), data parts for
 * skill loads and `contextChanged` lines, and `finish`. Built with the `ai` package's own
 * `createUIMessageStream`.
 */
import type { SessionEvent, SubagentRun } from '@skilltree/core';
import { createUIMessageStream, type UIMessageStreamWriter } from 'ai';
import { approvalIdOf } from './approval-id.js';
import { SubagentTracker } from './subagent-parts.js';
import { defaultToolErrorText, type ToolErrorText } from './tool-errors.js';
import { changeChunks, outcomeChunk, type SkilltreeUIChunk, type SkilltreeUIMessage, toolOutcome } from './ui-parts.js';

export type { SkilltreeUIChunk } from './ui-parts.js';

/** What {@link turnStream} needs. */
export interface TurnStreamOptions {
  /** The turn's events; the first one may already have been taken (see `first`). */
  events: AsyncIterator<SessionEvent>;
  /** The event taken before the response started (to answer errors before it with a status). */
  first?: IteratorResult<SessionEvent>;
  /** The text the client sees for an error that ends the turn. */
  onError: (error: unknown) => string;
  /**
   * The text the client sees for a tool's error result. Default: the text itself when it is meant for
   * end users (`isToolErrorForUsers`), else a sentence that names the tool.
   */
  toolErrorText?: ToolErrorText;
  /** The assistant message this stream goes on (answers to waiting calls): its `start` carries the id. */
  messageId?: string;
  /** Calls announced in an earlier stream whose results this one carries (the answered ones). */
  answered?: readonly string[];
  /** Whether reasoning is streamed as reasoning parts (its text only). Default true. */
  sendReasoning?: boolean;
  /**
   * Runs an earlier stream started that this turn goes on with (an answer to a call that waited inside
   * a run): their parts update in place. Default: none.
   */
  subagentRuns?: readonly SubagentRun[];
  /** Called once the turn is over, however it ended. */
  onClose?: () => void;
  /** Called when the consumer cancels the stream (the client went away), before the turn is stopped. */
  onCancel?: (reason: unknown) => void;
  /**
   * When the consumer cancels, let the turn run to its end (its events are drained unseen) instead
   * of stopping it: a client that reloads does not stop the answer. Default false.
   */
  detachOnCancel?: boolean;
}

/**
 * Maps events to chunks. Keeps the open text part and step, and the tool calls without a result, so
 * that a turn that fails still leaves every tool part in a final state.
 */
class ChunkWriter {
  private text: string | null = null;
  private texts = 0;
  private reasoning: string | null = null;
  /** Whether the open reasoning part got its text as deltas (else the finished block carries it). */
  private reasoned = false;
  private reasonings = 0;
  private step = false;
  private readonly open = new Set<string>();
  /** The turn's subagent runs, each streamed as one `data-subagent` part updated in place. */
  private readonly runs: SubagentTracker;

  constructor(
    private readonly writer: UIMessageStreamWriter<SkilltreeUIMessage>,
    private readonly errorText: ToolErrorText,
    private readonly sendReasoning: boolean,
    answered: readonly string[],
    started: readonly SubagentRun[] = [],
  ) {
    for (const id of answered) this.open.add(id);
    this.runs = new SubagentTracker(errorText, started);
  }

  private endReasoning(): void {
    if (this.reasoning === null) return;
    this.writer.write({ type: 'reasoning-end', id: this.reasoning });
    this.reasoning = null;
    this.reasoned = false;
  }

  private startReasoning(): string {
    if (this.reasoning === null) {
      this.endText();
      this.reasoning = `reasoning-${++this.reasonings}`;
      this.writer.write({ type: 'reasoning-start', id: this.reasoning });
    }
    return this.reasoning;
  }

  private endText(): void {
    this.endReasoningIfOpen();
    if (this.text === null) return;
    this.writer.write({ type: 'text-end', id: this.text });
    this.text = null;
  }

  private endReasoningIfOpen(): void {
    if (this.reasoning !== null) this.endReasoning();
  }

  private endStep(): void {
    this.endText();
    if (!this.step) return;
    this.writer.write({ type: 'finish-step' });
    this.step = false;
  }

  event(event: SessionEvent): void {
    const w = this.writer;
    // A run's progress first: its part goes out before the parent's next step, result or finish.
    for (const part of this.runs.event(event)) w.write(part);
    switch (event.type) {
      case 'request':
        this.endStep();
        w.write({ type: 'start-step' });
        this.step = true;
        return;
      case 'reasoning-delta': {
        if (!this.sendReasoning || event.text === '') return;
        const id = this.startReasoning();
        this.reasoned = true;
        w.write({ type: 'reasoning-delta', id, delta: event.text });
        return;
      }
      case 'reasoning': {
        if (!this.sendReasoning) return;
        // A block that did not stream its text (a model without streaming) is sent whole.
        if (!this.reasoned && event.reasoning.text !== '') {
          w.write({ type: 'reasoning-delta', id: this.startReasoning(), delta: event.reasoning.text });
        }
        this.endReasoning();
        return;
      }
      case 'text-delta':
        if (event.text === '') return;
        this.endReasoningIfOpen();
        if (this.text === null) {
          this.text = `text-${++this.texts}`;
          w.write({ type: 'text-start', id: this.text });
        }
        w.write({ type: 'text-delta', id: this.text, delta: event.text });
        return;
      case 'tool-call':
        this.endText();
        this.open.add(event.toolCall.id);
        w.write({
          type: 'tool-input-available',
          toolCallId: event.toolCall.id,
          toolName: event.toolCall.name,
          input: event.toolCall.input,
          dynamic: true,
        });
        return;
      case 'context-changed':
        this.endText();
        for (const chunk of changeChunks(event.changes)) w.write(chunk);
        return;
      case 'tool-result': {
        const { message } = event;
        if (!this.open.delete(message.toolCallId)) return;
        w.write(outcomeChunk(message.toolCallId, toolOutcome(message, this.errorText)));
        return;
      }
      case 'waiting':
        this.endText();
        // Calls that wait for a person: useChat shows them as approval requests, answered with
        // addToolApprovalResponse. The approval id names the chat's incarnation and the call, so the
        // answer lands only on the call shown (the owner check guards the chat).
        // A call inside a run asks on the tool part of the parent's call that spawned the run.
        for (const call of event.calls) {
          if (call.for !== 'approval' || call.status !== 'waiting') continue;
          const part = this.open.has(call.toolCallId) ? call.toolCallId : this.runs.topCallOf(call.toolCallId);
          if (part === undefined || !this.open.has(part)) continue;
          this.open.delete(part);
          w.write({ type: 'tool-approval-request', approvalId: approvalIdOf(call), toolCallId: part });
        }
        return;
      case 'finish':
        this.endStep();
        w.write({ type: 'finish', finishReason: event.turn.waiting ? 'tool-calls' : 'stop' });
        return;
      default:
      // message, skill-loaded/-unloaded (carried by the context changes), store-changed, warning,
      // subagent-* (the run's data part, above).
    }
  }

  /** The turn failed: calls without a result were not run (the transcript records them so too). */
  fail(reason: string): void {
    this.endText();
    for (const id of this.open) {
      this.writer.write({ type: 'tool-output-error', toolCallId: id, errorText: reason, dynamic: true });
    }
    this.open.clear();
    this.endStep();
  }
}

/**
 * The UI message stream of one turn. Cancelling it (the client went away) stops the iteration, which
 * aborts the turn; what the turn recorded until then stays committed and valid.
 */
export function turnStream(options: TurnStreamOptions): ReadableStream<SkilltreeUIChunk> {
  const {
    events,
    first,
    onError,
    onClose,
    onCancel,
    toolErrorText = defaultToolErrorText,
    sendReasoning = true,
  } = options;
  let closed = false;
  /** Set once a detached stream's reader went away: events are still pulled, nothing is written. */
  let detached = false;
  const close = () => {
    if (closed) return;
    closed = true;
    onClose?.();
  };
  const stream = createUIMessageStream<SkilltreeUIMessage>({
    onError,
    execute: async ({ writer: raw }) => {
      const writer: typeof raw = {
        ...raw,
        write: (part) => {
          if (!detached) raw.write(part);
        },
      };
      const chunks = new ChunkWriter(
        writer,
        toolErrorText,
        sendReasoning,
        options.answered ?? [],
        options.subagentRuns ?? [],
      );
      // An answer's stream goes on the message it answers: the client adds no second one.
      writer.write(options.messageId ? { type: 'start', messageId: options.messageId } : { type: 'start' });
      try {
        if (first && !first.done) chunks.event(first.value);
        if (!first?.done) {
          for (;;) {
            const next = await events.next();
            if (next.done) break;
            chunks.event(next.value);
          }
        }
      } catch (error) {
        chunks.fail('Not run: the turn stopped before this call finished.');
        throw error;
      } finally {
        close();
      }
    },
  });
  // createUIMessageStream does not hear the consumer cancel: pass the cancel on to the turn.
  const reader = stream.getReader();
  return new ReadableStream<SkilltreeUIChunk>({
    async pull(controller) {
      const { done, value } = await reader.read();
      if (done) controller.close();
      else controller.enqueue(value);
    },
    async cancel(reason) {
      onCancel?.(reason);
      if (options.detachOnCancel) {
        // The turn goes on without a reader: its events are still pulled (and written nowhere), so
        // it runs and commits to its end.
        detached = true;
        void reader.cancel(reason).catch(() => {});
        return;
      }
      await events.return?.().catch(() => {});
      close();
      await reader.cancel(reason).catch(() => {});
    },
  });
}
