/**
 * Where `<current_context>` goes in the messages a provider receives. Adapters call this so that
 * every provider places the context the same way, and read `placed` instead of working it out again.
 */
import { textPart } from '../parts/message-parts.js';
import type { Message } from '../types/messages.js';
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
}

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
    return { system: req.system ? `${req.system}\n\n${context}` : context, messages: req.messages, placed: 'system' };
  }
  const messages = req.messages.slice();
  for (let i = messages.length - 1; i >= 0; i--) {
    const message = messages[i];
    if (message.role === 'assistant') continue;
    messages[i] = { ...message, content: [...message.content, textPart(`\n\n${context}`)] } as Message;
    return { system: req.system, messages, placed: i };
  }
  // No user-role message in the window (a session driven only by tool calls): add one.
  messages.push({ role: 'user', content: [textPart(context)] });
  return { system: req.system, messages, placed: messages.length - 1 };
}
