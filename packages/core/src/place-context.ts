/**
 * Where `<current_context>` goes in the messages a provider receives. Adapters call this so that
 * every provider places the context the same way.
 */
import type { Message, ModelRequest } from './types.js';

/** The system prompt and messages with the context placed per `req.contextPlacement`. */
export interface PlacedRequest {
  system: string;
  messages: Message[];
}

/**
 * `'end'`: the context is appended to the last user-role message (a user message or a tool result),
 * so the system prompt and every older message stay byte-identical between steps and provider
 * prompt caches hit. `'system'`: the context is appended to the system prompt.
 * The input request is not modified.
 */
export function placeContext(req: ModelRequest): PlacedRequest {
  if (req.contextPlacement === 'system') {
    return { system: req.system ? `${req.system}\n\n${req.context}` : req.context, messages: req.messages };
  }
  const messages = req.messages.slice();
  for (let i = messages.length - 1; i >= 0; i--) {
    const message = messages[i];
    if (message.role === 'assistant') continue;
    messages[i] = { ...message, content: `${message.content}\n\n${req.context}` };
    return { system: req.system, messages };
  }
  // No user-role message in the window (a session driven only by tool calls): add one.
  messages.push({ role: 'user', content: req.context });
  return { system: req.system, messages };
}
