/**
 * The Chat Completions API (`openai({ model, api: 'chat' })`, and what any OpenAI-compatible server
 * speaks): the request body for a neutral request, and the response and its stream read back.
 */
import {
  type FilePart,
  type Message,
  type ModelAccepts,
  type ModelRequest,
  type ModelResponse,
  type ModelStreamPart,
  partsText,
  placeContext,
  renderParts,
  type ToolCall,
  type Usage,
} from '@skilltree/core/provider';
import type OpenAI from 'openai';
import { malformedError, networkError, preview } from './errors.js';
import { OPENAI_AUDIO_FORMATS, OpenAIFileBudget, planFile } from './openai-files.js';
import { toolCallIds } from './tool-call-id.js';
import { parseToolArguments, toolInputJson } from './tool-input.js';

/** The options {@link openaiRequestBody} reads. */
export interface OpenAIChatBodyOptions {
  /** The model id. */
  model: string;
  /** Sent as `max_tokens`. */
  maxTokens?: number;
  temperature?: number;
  /** Sent as `reasoning_effort`. */
  reasoningEffort?: string;
  /** Fields merged into the body last. */
  extraBody?: Record<string, unknown>;
  /** The kinds of file the model reads (`Model.accepts`); a file of another kind is described in text. */
  accepts?: ModelAccepts;
}

/** A file's bytes (or its `data:` URL) as a `data:` URL, else its URL. */
export function fileUrl(file: FilePart): string | undefined {
  if (file.data !== undefined) return `data:${file.mediaType};base64,${file.data}`;
  return file.url;
}

/**
 * A user message's content: its text as a string when it is text only (the same bytes as before
 * messages had parts), else text, `image_url` (images, by bytes or URL), `file` parts (PDFs by their
 * bytes: the only files Chat Completions takes) and `input_audio` (WAV or MP3, for a model that
 * hears). Any other file, or one the model does not read, is the text describing it. OpenAI's
 * limits are checked as each file is added (`budget`).
 */
function userContent(
  parts: Message['content'],
  accepts: ModelAccepts | undefined,
  budget: OpenAIFileBudget,
): OpenAI.ChatCompletionUserMessageParam['content'] {
  const rendered = renderParts(parts);
  if (rendered.every((p) => p.type === 'text')) return rendered.map((p) => (p as { text: string }).text).join('');
  return rendered.map((part): OpenAI.ChatCompletionContentPart => {
    if (part.type === 'text') return { type: 'text', text: part.text };
    const plan = planFile(part, accepts, budget);
    if ('describe' in plan) return { type: 'text', text: plan.describe };
    if (plan.send === 'image') return { type: 'image_url', image_url: { url: fileUrl(part) ?? '' } };
    if (plan.send === 'audio') {
      return {
        type: 'input_audio',
        input_audio: { data: part.data ?? '', format: OPENAI_AUDIO_FORMATS[part.mediaType] },
      };
    }
    return {
      type: 'file',
      file: { file_data: `data:${part.mediaType};base64,${part.data}`, filename: part.filename ?? 'file' },
    };
  });
}

function toMessage(
  message: Message,
  accepts: ModelAccepts | undefined,
  budget: OpenAIFileBudget,
): OpenAI.ChatCompletionMessageParam {
  if (message.role === 'user') return { role: 'user', content: userContent(message.content, accepts, budget) };
  // Chat Completions tool messages carry text only: a file in a result reads as `[file: name]`.
  if (message.role === 'tool') {
    return { role: 'tool', tool_call_id: message.toolCallId, content: partsText(message.content) };
  }
  // Reasoning is left out: Chat Completions has no way to send it back.
  const text = partsText(message.content);
  const calls = message.toolCalls ?? [];
  if (calls.length === 0) return { role: 'assistant', content: text };
  return {
    role: 'assistant',
    content: text || null,
    tool_calls: calls.map((call) => ({
      id: call.id,
      type: 'function',
      function: { name: call.name, arguments: toolInputJson(call.input) },
    })),
  };
}

/**
 * The Chat Completions body (without `stream`) for a request, exactly as the adapter sends it: the
 * system prompt as a `system` message, the transcript with the context placed by `placeContext`,
 * the tools as functions. Always the classic layout: an append-only request
 * (`ModelRequest.appendOnly`) is sent as its classic fields, since Chat Completions replays no
 * reasoning and takes no tools mid-conversation. A file over OpenAI's limits throws a `ModelError`
 * naming it before anything is sent; one the API or the model does not take is described in text.
 */
export function openaiRequestBody(
  req: ModelRequest,
  options: OpenAIChatBodyOptions,
): OpenAI.ChatCompletionCreateParamsNonStreaming {
  const placed = placeContext(req);
  const messages: OpenAI.ChatCompletionMessageParam[] = [];
  if (placed.system) messages.push({ role: 'system', content: placed.system });
  const budget = new OpenAIFileBudget('Chat Completions');
  messages.push(...placed.messages.map((m) => toMessage(m, options.accepts, budget)));
  const body: OpenAI.ChatCompletionCreateParamsNonStreaming = { model: options.model, messages };
  if (req.tools.length > 0) {
    body.tools = req.tools.map((tool) => ({
      type: 'function',
      function: { name: tool.name, description: tool.description, parameters: tool.inputSchema },
    }));
  }
  if (options.maxTokens !== undefined) body.max_tokens = options.maxTokens;
  if (options.temperature !== undefined) body.temperature = options.temperature;
  if (options.reasoningEffort !== undefined) {
    body.reasoning_effort = options.reasoningEffort as OpenAI.ChatCompletionCreateParams['reasoning_effort'];
  }
  return { ...body, ...(options.extraBody ?? {}) } as OpenAI.ChatCompletionCreateParamsNonStreaming;
}

interface RawUsage {
  prompt_tokens?: number;
  completion_tokens?: number;
  prompt_tokens_details?: { cached_tokens?: number | null } | null;
  completion_tokens_details?: { reasoning_tokens?: number | null } | null;
  /** DeepSeek's name for the cached part of `prompt_tokens`. */
  prompt_cache_hit_tokens?: number | null;
}

/**
 * Chat Completions usage as skilltree `Usage`:
 *
 * - `inputTokens` = `prompt_tokens`, which already counts every input token, cached or not;
 * - `outputTokens` = `completion_tokens`;
 * - `cacheReadTokens` = `prompt_tokens_details.cached_tokens` (DeepSeek: `prompt_cache_hit_tokens`);
 * - `reasoningTokens` = `completion_tokens_details.reasoning_tokens`, when reported;
 * - `cacheWriteTokens` is never set: Chat Completions reports no writes.
 *
 * Returns undefined when the response carries no usage object.
 */
export function openaiUsage(raw: RawUsage | null | undefined): Usage | undefined {
  if (!raw || typeof raw !== 'object') return undefined;
  const usage: Usage = {};
  if (typeof raw.prompt_tokens === 'number') usage.inputTokens = raw.prompt_tokens;
  if (typeof raw.completion_tokens === 'number') usage.outputTokens = raw.completion_tokens;
  const cached = raw.prompt_tokens_details?.cached_tokens ?? raw.prompt_cache_hit_tokens;
  if (typeof cached === 'number') usage.cacheReadTokens = cached;
  const reasoning = raw.completion_tokens_details?.reasoning_tokens;
  if (typeof reasoning === 'number') usage.reasoningTokens = reasoning;
  return usage;
}

/** A chat completion as a response. */
export function readChatResponse(response: unknown): ModelResponse {
  const choices = (response as { choices?: unknown } | null)?.choices;
  const message = Array.isArray(choices) ? (choices[0] as { message?: unknown } | undefined)?.message : undefined;
  if (!message || typeof message !== 'object') {
    throw malformedError('openai', `expected { choices: [{ message }] }, got ${preview(response)}`);
  }
  const m = message as { content?: unknown; tool_calls?: unknown };
  const text = typeof m.content === 'string' ? m.content : '';
  const toolCalls: ToolCall[] = [];
  const rawCalls = Array.isArray(m.tool_calls) ? m.tool_calls : [];
  const idOf = toolCallIds();
  for (const raw of rawCalls as { id?: unknown; function?: { name?: unknown; arguments?: unknown } }[]) {
    const name = raw?.function?.name;
    if (typeof name !== 'string' || name === '') {
      throw malformedError('openai', `a tool call without a function name: ${preview(raw)}`);
    }
    toolCalls.push({ id: idOf(raw.id), name, input: parseToolArguments(raw.function?.arguments) });
  }
  const usage = openaiUsage((response as { usage?: RawUsage }).usage);
  const out: ModelResponse = usage ? { text, toolCalls, usage } : { text, toolCalls };
  const model = (response as { model?: unknown }).model;
  if (typeof model === 'string' && model) out.model = model;
  return out;
}

interface PendingCall {
  id?: string;
  name: string;
  args: string;
  rawInput?: unknown;
}

/** Converts the chunks of one streamed completion into stream parts. */
export async function* readChatChunks(
  chunks: AsyncIterable<OpenAI.ChatCompletionChunk>,
): AsyncGenerator<ModelStreamPart> {
  const calls: PendingCall[] = [];
  const slots = new Map<number, number>();
  let usage: Usage | undefined;
  let finished = false;
  let model: string | undefined;
  for await (const chunk of chunks) {
    if (!chunk || typeof chunk !== 'object') throw malformedError('openai', `a stream chunk that is not an object`);
    if (chunk.usage) usage = openaiUsage(chunk.usage);
    if (typeof chunk.model === 'string' && chunk.model) model = chunk.model;
    const choice = Array.isArray(chunk.choices) ? chunk.choices[0] : undefined;
    if (!choice) continue;
    const delta = choice.delta ?? {};
    if (typeof delta.content === 'string' && delta.content) yield { type: 'text-delta', text: delta.content };
    for (const d of delta.tool_calls ?? []) {
      // Fragments name their call by `index`. Some servers send every call whole with `index: 0`, or
      // with no index at all: a new id where a different call already sits starts a new call.
      const key = typeof d.index === 'number' ? d.index : -1;
      let slot = slots.get(key);
      const current = slot === undefined ? undefined : calls[slot];
      if (slot === undefined || (d.id && current?.id && current.id !== d.id)) {
        slot = calls.length;
        calls.push({ name: '', args: '' });
        slots.set(key, slot);
      }
      const call = calls[slot];
      if (d.id) call.id = d.id;
      if (d.function?.name) call.name += d.function.name;
      const args: unknown = d.function?.arguments;
      if (typeof args === 'string') {
        call.args += args;
        // Counted by the session: a call cut off mid-input is charged what it streamed.
        if (args) yield { type: 'tool-input-delta', text: args };
      } else if (args != null) call.rawInput = args;
    }
    if (choice.finish_reason) finished = true;
  }
  if (!finished) {
    throw networkError('openai', new Error('the stream ended before a finish_reason (connection dropped?)'));
  }
  const idOf = toolCallIds();
  for (const [i, call] of calls.entries()) {
    if (!call.name) throw malformedError('openai', `streamed tool call ${i} has no function name`);
    const input = call.rawInput !== undefined ? call.rawInput : parseToolArguments(call.args);
    yield { type: 'tool-call', id: idOf(call.id), name: call.name, input };
  }
  yield model ? { type: 'finish', usage, model } : { type: 'finish', usage };
}
