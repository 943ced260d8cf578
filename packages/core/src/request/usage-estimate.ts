/**
 * Usage estimated from characters, where no provider reports it: the scripted model's usage (so
 * cost lines, the Cost view and budgets work offline) and a budget's look-ahead at the next request.
 * One estimate everywhere: 4 characters per token (`estimateTokens`), the one the token window uses.
 */
import { estimateFileTokens } from '../files/files.js';
import { textOf } from '../parts/message-parts.js';
import { estimateTokens } from '../transcript/window.js';
import type { Message } from '../types/messages.js';
import type { ModelResponse, Usage } from '../types/model.js';
import type { ModelRequest, ToolSpec } from '../types/request.js';
import { placeContext } from './place-context.js';

function messageText(message: Message): string {
  if (message.role === 'assistant') {
    const calls = message.toolCalls?.map((c) => `${c.id} ${c.name} ${JSON.stringify(c.input ?? {})}`).join('\n');
    let reasoning = '';
    for (const part of message.content) {
      if (part.type === 'reasoning')
        reasoning += `${part.text}${Object.values(part.providerData ?? {})
          .filter((value) => typeof value === 'string')
          .join('')}\n`;
    }
    return `assistant\n${reasoning}${textOf(message)}${calls ? `\n${calls}` : ''}`;
  }
  if (message.role === 'tool') return `tool ${message.toolCallId} ${message.name}\n${textOf(message)}`;
  return `user\n${textOf(message)}`;
}

/**
 * The request as a provider receives it, flattened to text in the order providers cache it: tools,
 * the system prompt, then the messages, with `<current_context>` placed as the request says.
 */
export function requestText(request: ModelRequest): string {
  const ao = request?.appendOnly;
  if (ao && Array.isArray(ao.items)) {
    // What an append-only model receives: the first request's tools and system, then the items.
    const specText = (t: ToolSpec) => `${t.name}: ${t.description} ${JSON.stringify(t.inputSchema)}`;
    const items = ao.items.map((item) =>
      item.role === 'system'
        ? `system\n${item.text}${item.addedTools.map((t) => `\n+${specText(t)}`).join('')}${item.removedTools.map((n) => `\n-${n}`).join('')}`
        : messageText(item),
    );
    return [ao.tools.map(specText).join('\n'), ao.system, ...items].join('\n\n');
  }
  // A hand-made request (a test calling generate directly) may lack parts: estimate what is there.
  const whole: ModelRequest = {
    system: typeof request?.system === 'string' ? request.system : '',
    context: typeof request?.context === 'string' ? request.context : '',
    messages: Array.isArray(request?.messages) ? request.messages : [],
    tools: Array.isArray(request?.tools) ? request.tools : [],
    contextPlacement: request?.contextPlacement === 'system' ? 'system' : 'end',
  };
  const placed = placeContext(whole);
  const tools = whole.tools.map((t) => `${t.name}: ${t.description} ${JSON.stringify(t.inputSchema)}`);
  return [tools.join('\n'), placed.system, ...placed.messages.map(messageText)].join('\n\n');
}

/** Estimated input tokens of `request`. */
export function estimateRequestTokens(request: ModelRequest): number {
  return estimateTokens(requestText(request)) + fileTokens(request);
}

/** Estimated tokens of the files a request carries (images by their size, as providers bill them). */
function fileTokens(request: ModelRequest): number {
  const items = request?.appendOnly?.items ?? (Array.isArray(request?.messages) ? request.messages : []);
  let n = 0;
  for (const item of items) {
    if (item.role === 'system') continue;
    for (const part of item.content) if (part.type === 'file') n += estimateFileTokens(part);
  }
  return n;
}

/** Estimated output tokens of a response: its text and its tool calls. */
export function estimateResponseTokens(response: Pick<ModelResponse, 'text' | 'toolCalls'>): number {
  let text = response.text;
  for (const call of response.toolCalls) text += `\n${call.name} ${JSON.stringify(call.input ?? {})}`;
  return estimateTokens(text);
}

function commonPrefix(a: string, b: string): number {
  const n = Math.min(a.length, b.length);
  let i = 0;
  while (i < n && a.charCodeAt(i) === b.charCodeAt(i)) i++;
  return i;
}

/**
 * An estimator of usage for one conversation: input and output at 4 characters per token, and cache
 * reads as the prefix this request shares with the previous one (what a provider's prefix cache
 * could read at best). Cache writes are not estimated. Every result has `estimated: true`.
 */
export function usageEstimator(): (
  request: ModelRequest,
  response: Pick<ModelResponse, 'text' | 'toolCalls'>,
) => Usage {
  let previous: string | null = null;
  return (request, response) => {
    const text = requestText(request);
    const inputTokens = estimateTokens(text) + fileTokens(request);
    const usage: Usage = { inputTokens, outputTokens: estimateResponseTokens(response), estimated: true };
    if (previous !== null) usage.cacheReadTokens = Math.min(inputTokens, Math.floor(commonPrefix(previous, text) / 4));
    previous = text;
    return usage;
  };
}
