/**
 * Messages as tests read them: in one shape, core's. `turn.messages`, `agent.transcript`,
 * `agent.request().messages`, `callTool`'s result and a scripted model's `requests[i].messages` are
 * all core messages (`content` is typed parts), so one message read from two of them is deep-equal,
 * and `textOf(message)` is the text the model read.
 *
 * The text views (`testMessage`, `testTurn`, `testRequest` and their types) are the shape the handle
 * returned before; they stay, deprecated, for tests written against it.
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

/**
 * A user message as a text view: `content` is its text, with its `contextChanged` lines.
 *
 * @deprecated The handle returns core's `UserMessage`; read its text with `textOf`.
 */
export type TestUserMessage = Omit<UserMessage, 'content'> & { content: string } & PartsOf<
    UserMessage['content'][number]
  >;
/**
 * An assistant message as a text view: `content` is its text; `reasoning` its reasoning text.
 *
 * @deprecated The handle returns core's `AssistantMessage`; read its text with `textOf`.
 */
export type TestAssistantMessage = Omit<AssistantMessage, 'content'> & {
  content: string;
  /** The reasoning parts' text, joined by a blank line ('' when it has none). Not enumerable. */
  readonly reasoning: string;
} & PartsOf<AssistantMessage['content'][number]>;
/**
 * A tool result as a text view: `content` is its text, with its `contextChanged` lines.
 *
 * @deprecated The handle returns core's `ToolMessage`; read its text with `textOf`.
 */
export type TestToolMessage = Omit<ToolMessage, 'content' | 'errorKind'> & {
  content: string;
  /** Why it is an error (`unknown-tool`, `invalid-input`, `threw`, …). Not enumerable. */
  readonly errorKind?: ToolErrorKind;
} & PartsOf<ToolMessage['content'][number]>;
/**
 * A transcript message as a text view.
 *
 * @deprecated The handle returns core's `Message`; read its text with `textOf`.
 */
export type TestMessage = TestUserMessage | TestAssistantMessage | TestToolMessage;
/**
 * A request with its messages as text views.
 *
 * @deprecated `agent.request()` returns core's `ModelRequest`.
 */
export type TestRequest = Omit<ModelRequest, 'messages'> & { messages: TestMessage[] };
/**
 * A turn with its messages as text views.
 *
 * @deprecated `agent.say` (and `approve`, `deny`, `addToolResult`) resolve with core's `Turn`.
 */
export type TestTurn = Omit<Turn, 'messages'> & { messages: TestMessage[] };

/**
 * A copy of a core message the handle returns: a test may mutate it without touching the session,
 * and it stays deep-equal to the message the model was sent.
 */
export const plainMessage = <M extends Message>(message: M): M => structuredClone(message);

/** A turn as the handle returns it: the session's turn, its messages copied by {@link plainMessage}. */
export function plainTurn(turn: Turn): Turn {
  return { ...turn, messages: turn.messages.map(plainMessage) };
}

const hidden = (target: object, key: string, value: unknown) =>
  Object.defineProperty(target, key, { value, enumerable: false, configurable: true });

/**
 * `message` as a text view: `content` as the text the model read, the parts kept as `parts` (not
 * enumerable, like `errorKind` and `reasoning`).
 *
 * @deprecated Read core messages as they are (`textOf(message)` is the text); kept for tests written
 * when the handle returned text views: `testTurn(await agent.say('hi'))` gives that shape back.
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

/**
 * A request with its messages as text views.
 *
 * @deprecated `agent.request()` is core's request; kept for tests written against text views.
 */
export function testRequest(request: ModelRequest): TestRequest {
  return { ...request, messages: request.messages.map(testMessage) };
}

/**
 * A turn with its messages as text views.
 *
 * @deprecated `agent.say` resolves with core's turn; kept for tests written against text views.
 */
export function testTurn(turn: Turn): TestTurn {
  return { ...turn, messages: turn.messages.map(testMessage) };
}

/** A subagent run as the handle returns it: its transcript copied by {@link plainMessage}. */
export function plainRun(run: SubagentRun): SubagentRun {
  return { ...run, transcript: run.transcript.map(plainMessage) };
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
