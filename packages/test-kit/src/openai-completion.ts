/**
 * Chat Completions objects as the local stand-ins for OpenAI send them: a non-streamed completion,
 * a stream's chunk, and the usage both carry. The models and evals wire servers answer with these.
 */

/** A scripted answer in Chat Completions terms: text and/or tool calls. */
export interface OpenAIStep {
  text?: string;
  /** An empty `id` is left out of the wire format (as some compatible servers do); a string `input` is sent as is. */
  toolCalls?: { id: string; name: string; input: unknown }[];
}

/** The `id` field, left out when empty. */
const idField = (id: string): { id?: string } => (id ? { id } : {});

/** A tool call's `arguments`: a string input as is (to send bad JSON), anything else as JSON. */
export const openaiArguments = (input: unknown): string => (typeof input === 'string' ? input : JSON.stringify(input));

/** Chat Completions usage from its counts: `total_tokens` is prompt plus completion. */
export function openaiUsageObject(prompt: number, completion: number, cached: number) {
  return {
    prompt_tokens: prompt,
    completion_tokens: completion,
    total_tokens: prompt + completion,
    prompt_tokens_details: { cached_tokens: cached },
  };
}

/** One chunk of a streamed completion from `model`, with `extra` fields (the last chunk's `usage`). */
export function openaiChunkObject(choices: unknown[], extra: Record<string, unknown> = {}, model = 'gpt-test') {
  return { id: 'chatcmpl-1', object: 'chat.completion.chunk', created: 1, model, choices, ...extra };
}

/** A non-streamed chat completion from `model` (`gpt-test` when left out) answering `step`, with `usage`. */
export function openaiCompletionObject(step: OpenAIStep, usage: unknown, model = 'gpt-test') {
  const message: Record<string, unknown> = { role: 'assistant', content: step.text ?? null, refusal: null };
  if (step.toolCalls?.length) {
    message.tool_calls = step.toolCalls.map((c) => ({
      ...idField(c.id),
      type: 'function',
      function: { name: c.name, arguments: openaiArguments(c.input) },
    }));
  }
  return {
    id: 'chatcmpl-1',
    object: 'chat.completion',
    created: 1,
    model,
    choices: [{ index: 0, message, logprobs: null, finish_reason: step.toolCalls?.length ? 'tool_calls' : 'stop' }],
    usage,
  };
}
