/**
 * Messages as tests read them. A transcript message's `content` is typed parts in core; a test
 * mostly asks what the model read, so the handle presents each message with `content` as that text
 * (`textOf`) and keeps the parts beside it: `parts` (and `errorKind`, `reasoning`) are there to read
 * but not enumerable, so `toEqual`, `toMatchObject` and snapshots compare what the model read.
 */
import {
  type AssistantMessage,
  type Message,
  type ModelRequest,
  type SubagentRun,
  type ToolMessage,
  type Turn,
  textOf,
  type UserMessage,
} from '@skilltree/core';
import type { MessagePart, ToolErrorKind } from '@skilltree/core/provider';

/** What every message view adds: the message's parts as core records them. */
interface PartsOf<P extends MessagePart> {
  /** The content as typed parts (text, reasoning, files, `contextChanged` lines). Not enumerable. */
  readonly parts: P[];
}

/** A user message as a test reads it: `content` is its text, with its `contextChanged` lines. */
export type TestUserMessage = Omit<UserMessage, 'content'> & { content: string } & PartsOf<
    UserMessage['content'][number]
  >;
/** An assistant message as a test reads it: `content` is its text; `reasoning` its reasoning text. */
export type TestAssistantMessage = Omit<AssistantMessage, 'content'> & {
  content: string;
  /** The reasoning parts' text, joined by a blank line ('' when it has none). Not enumerable. */
  readonly reasoning: string;
} & PartsOf<AssistantMessage['content'][number]>;
/** A tool result as a test reads it: `content` is its text, with its `contextChanged` lines. */
export type TestToolMessage = Omit<ToolMessage, 'content' | 'errorKind'> & {
  content: string;
  /** Why it is an error (`unknown-tool`, `invalid-input`, `threw`, …). Not enumerable. */
  readonly errorKind?: ToolErrorKind;
} & PartsOf<ToolMessage['content'][number]>;
/** A transcript message as a test reads it. */
export type TestMessage = TestUserMessage | TestAssistantMessage | TestToolMessage;
/** A request as a test reads it: its messages as {@link TestMessage}s. */
export type TestRequest = Omit<ModelRequest, 'messages'> & { messages: TestMessage[] };
/** A subagent run as a test reads it: its transcript as {@link TestMessage}s. */
export type TestSubagentRun = Omit<SubagentRun, 'transcript'> & { transcript: TestMessage[] };
/** A turn as a test reads it: its messages as {@link TestMessage}s. */
export type TestTurn = Omit<Turn, 'messages'> & { messages: TestMessage[] };

const hidden = (target: object, key: string, value: unknown) =>
  Object.defineProperty(target, key, { value, enumerable: false, configurable: true });

/**
 * `message` as a test reads it: `content` as the text the model read, the parts kept as `parts`.
 *
 * @example
 * testMessage({ role: 'user', content: [{ type: 'text', text: 'hi' }] }).content; // 'hi'
 */
export function testMessage(message: Message): TestMessage {
  const { content, ...rest } = message;
  const out: Record<string, unknown> = { ...rest, content: textOf(message) };
  hidden(out, 'parts', content);
  if (message.role === 'tool' && message.errorKind !== undefined) {
    delete out.errorKind;
    hidden(out, 'errorKind', message.errorKind);
  }
  if (message.role === 'assistant') {
    const reasoning = message.content.flatMap((part) => (part.type === 'reasoning' ? [part.text] : []));
    hidden(out, 'reasoning', reasoning.join('\n\n'));
  }
  return out as unknown as TestMessage;
}

/** A tool result as a test reads it. */
export const testToolMessage = (message: ToolMessage) => testMessage(message) as TestToolMessage;

/** A request as a test reads it. */
export function testRequest(request: ModelRequest): TestRequest {
  return { ...request, messages: request.messages.map(testMessage) };
}

/** A turn as a test reads it. */
export function testTurn(turn: Turn): TestTurn {
  return { ...turn, messages: turn.messages.map(testMessage) };
}

/** A subagent run as a test reads it. */
export function testSubagentRun(run: SubagentRun): TestSubagentRun {
  return { ...run, transcript: run.transcript.map(testMessage) };
}

/** A message as core records it: a test view back to its parts (a core message passes as it is). */
export function coreMessage(message: Message | TestMessage): Message {
  if (typeof message.content !== 'string') return message as Message;
  const view = message as TestMessage;
  const parts = view.parts ?? (view.content === '' ? [] : [{ type: 'text', text: view.content }]);
  const out = { ...view, content: parts } as Record<string, unknown>;
  if (view.role === 'tool' && view.errorKind !== undefined) out.errorKind = view.errorKind;
  return out as unknown as Message;
}
