/**
 * Where `<current_context>` goes in the messages a provider receives. Adapters call this so that
 * every provider places the context the same way, and read `placed` instead of working it out again.
 */
import { textPart } from '../parts/message-parts.js';
import type { Message, TextPart } from '../types/messages.js';
import type { ModelRequest } from '../types/request.js';

/** The system prompt and messages with the context placed per `req.contextPlacement`. */
export interface PlacedRequest {
  system: string;
  messages: Message[];
  /**
   * Where the context went: `'system'` (appended to the system prompt after `\n\n`), or the index in
   * `messages` of the message that carries it: an existing user-role message it was appended to after
   * `\n\n`, or, when the index is the input's message count, a new user message holding only the context.
   */
  placed: 'system' | number;
  /**
   * The context as it was placed, as a text part: `\n\n` and the context where it was appended (to
   * the system prompt or to a message; the message holds this very part), or the context alone where
   * it stands by itself (an empty system prompt, a new message). The separator is rendered here and
   * nowhere else: an adapter that sends the context as a block of its own sends this part's text.
   */
  contextPart: TextPart;
}

/** The context as placed after something (`\n\n` then the context), or alone. */
const contextAfter = (context: string, after: boolean): TextPart => textPart(after ? `\n\n${context}` : context);

/**
 * `'end'`: the context is appended to the last user-role message (a user message or a tool result),
 * so the system prompt and every older message stay byte-identical between steps and provider
 * prompt caches hit. `'system'`: the context is appended to the system prompt.
 * The input request is not modified. To place the delta layout's context (`ModelRequest.lifecycle`),
 * pass `{ ...req, messages: lifecycle.messages, context: lifecycle.context }`: the same rule applies.
 */
export function placeContext(req: ModelRequest): PlacedRequest {
  const { context } = req;
  if (req.contextPlacement === 'system') {
    const contextPart = contextAfter(context, req.system !== '');
    return { system: `${req.system}${contextPart.text}`, messages: req.messages, placed: 'system', contextPart };
  }
  const messages = req.messages.slice();
  for (let i = messages.length - 1; i >= 0; i--) {
    const message = messages[i];
    if (message.role === 'assistant') continue;
    const contextPart = contextAfter(context, true);
    messages[i] = { ...message, content: [...message.content, contextPart] } as Message;
    return { system: req.system, messages, placed: i, contextPart };
  }
  // No user-role message in the window (a session driven only by tool calls): add one.
  const contextPart = contextAfter(context, false);
  messages.push({ role: 'user', content: [contextPart] });
  return { system: req.system, messages, placed: messages.length - 1, contextPart };
}
