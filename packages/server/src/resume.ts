/**
 * `GET /chat/:id/stream`: a running turn's answer for a page that was reloaded while it streamed,
 * from any worker. The turn commits each message as it completes, and its commits say it is running
 * (`sessions.get(id).running`), so the store is the one place every worker reads: this stream replays
 * what the turn committed so far and follows its commits to the end. It is built from the same
 * transcript `GET /chat/:id` reads, which leaves the running turn's answer out, so the page shows it
 * once, whole.
 */
import { contextChangesOf, type Message, type Sessions, type SubagentRun } from '@skilltree/core';
import { createUIMessageStream } from 'ai';
import { approvalIdOf } from './approval-id.js';
import { runsUnder, subagentPart, waitsInRuns } from './subagent-parts.js';
import type { ToolErrorText } from './tool-errors.js';
import {
  changeChunks,
  interruptedOutcome,
  outcomeChunk,
  type SkilltreeUIChunk,
  type SkilltreeUIMessage,
  toolOutcome,
  unshownPart,
} from './ui-parts.js';

/** What {@link resumeStream} needs. */
export interface ResumeOptions {
  sessions: Sessions;
  id: string;
  owner: string;
  /** Index of the running turn's first message (its user message, or the first result of an answer). */
  from: number;
  /** Index of the first message to send: the turn's user message, for its context changes (see `turnStart`). Default `from + 1`. */
  readFrom?: number;
  /** The assistant message the answer goes on: the `start` chunk carries it (see `turnStart`). */
  messageId?: string;
  toolErrorText: ToolErrorText;
  sendReasoning: boolean;
  /** Ends the stream (the client went away). */
  signal: AbortSignal;
  /** Milliseconds between two reads of the store while the turn runs. Default 200. */
  pollMs?: number;
}

/** The chunks of one committed message of the turn. */
function* chunksOf(message: Message, n: number, options: ResumeOptions): Generator<SkilltreeUIChunk> {
  if (message.role === 'assistant') {
    yield { type: 'start-step' };
    let k = 0;
    for (const part of message.content) {
      const id = `r${n}-${k++}`;
      if (part.type === 'reasoning') {
        if (!options.sendReasoning || part.text === '') continue;
        yield { type: 'reasoning-start', id };
        yield { type: 'reasoning-delta', id, delta: part.text };
        yield { type: 'reasoning-end', id };
      } else if (part.type === 'text') {
        if (part.text === '') continue;
        yield { type: 'text-start', id };
        yield { type: 'text-delta', id, delta: part.text };
        yield { type: 'text-end', id };
      } else unshownPart(part);
    }
    for (const call of message.toolCalls ?? []) {
      yield {
        type: 'tool-input-available',
        toolCallId: call.id,
        toolName: call.name,
        input: call.input,
        dynamic: true,
      };
    }
    yield { type: 'finish-step' };
    return;
  }
  if (message.role === 'tool') yield outcomeChunk(message.toolCallId, toolOutcome(message, options.toolErrorText));
  yield* changeChunks(contextChangesOf(message));
}

/** Waits `ms`, or less when `signal` aborts. Its abort listener goes when it ends, so polls leak none. */
const sleep = (ms: number, signal: AbortSignal) =>
  new Promise<void>((resolve) => {
    if (signal.aborted) return resolve();
    const done = () => {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal.addEventListener('abort', done, { once: true });
  });

/** The running turn's answer as a UI message stream: what it committed so far, then each commit until it ends. */
export function resumeStream(options: ResumeOptions): ReadableStream<SkilltreeUIChunk> {
  const { sessions, id, owner, signal } = options;
  const poll = options.pollMs ?? 200;
  return createUIMessageStream<SkilltreeUIMessage>({
    execute: async ({ writer }) => {
      // The turn's own message id: the history's id of its answer, so a reloaded page shows one bubble.
      writer.write(options.messageId ? { type: 'start', messageId: options.messageId } : { type: 'start' });
      let next = options.readFrom ?? options.from + 1;
      /** Calls sent without a result yet, by id: their tool's name. */
      const open = new Map<string, string>();
      /** Every call the answer made (for its subagent runs), and each run's part as last sent (JSON). */
      const calls: string[] = [];
      const sent = new Map<string, string>();
      let runs: SubagentRun[] = [];
      for (;;) {
        const info = await sessions.get(id, { owner });
        const messages = await sessions.messages(id, { from: next, limit: 1_000, owner });
        for (const message of messages) {
          if (message.role === 'assistant') {
            for (const call of message.toolCalls ?? []) {
              open.set(call.id, call.name);
              calls.push(call.id);
            }
          }
          if (message.role === 'tool') open.delete(message.toolCallId);
          for (const chunk of chunksOf(message, next++, options)) writer.write(chunk);
        }
        // The runs the answer's calls spawned, as the store keeps them now: a part each time one changed.
        if (calls.length > 0) {
          runs = await sessions.subagentRuns(id, { owner });
          for (const run of runsUnder(runs, calls)) {
            const part = subagentPart(run, options.toolErrorText);
            const json = JSON.stringify(part.data);
            if (sent.get(part.id) === json) continue;
            sent.set(part.id, json);
            writer.write(part);
          }
        }
        if (!info?.running || info.running.from !== options.from || signal.aborted) {
          // Messages the last commit added after the read above.
          if (messages.length === 1_000) continue;
          const waits = new Set(info?.waiting.filter((c) => c.status === 'waiting').map((c) => c.toolCallId));
          // A call waiting inside a run asks on the tool part of the call whose run holds it.
          const inRuns = waitsInRuns(info?.waiting ?? [], runs);
          const partOf = new Map<string, string>();
          for (const [top, inner] of inRuns) {
            for (const call of inner) partOf.set(call.toolCallId, top);
            if (inner.some((c) => c.status === 'waiting')) waits.add(top);
          }
          const asked = new Set<string>();
          for (const call of info?.waiting ?? []) {
            // An approved call whose tool runs asks nothing more.
            if (call.for !== 'approval' || call.status !== 'waiting') continue;
            const part = partOf.get(call.toolCallId) ?? call.toolCallId;
            if (asked.has(part)) continue;
            asked.add(part);
            writer.write({ type: 'tool-approval-request', approvalId: approvalIdOf(call), toolCallId: part });
          }
          // The turn is over and a call has no result and waits for nothing: its process stopped.
          if (info && !info.running && !signal.aborted) {
            for (const [callId, name] of open) {
              if (waits.has(callId)) continue;
              writer.write(outcomeChunk(callId, interruptedOutcome(name, callId, options.toolErrorText)));
            }
          }
          break;
        }
        await sleep(poll, signal);
      }
      writer.write({ type: 'finish', finishReason: 'stop' });
    },
  });
}
