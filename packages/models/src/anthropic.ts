/**
 * `@skilltree/models/anthropic`: the Anthropic Messages API through the official `@anthropic-ai/sdk`.
 *
 * @packageDocumentation
 */
import Anthropic from '@anthropic-ai/sdk';
import {
  type Message,
  type Model,
  type ModelCallOptions,
  type ModelRequest,
  type ModelResponse,
  type ModelStreamPart,
  placeContext,
  type ToolCall,
  type Usage,
} from '@skilltree/core';
import { malformedError, networkError } from './errors.js';
import { type RetryOptions, retryPolicy, streamWithRetry, withRetry } from './retry.js';
import { fromSdkError, type ProviderLabels } from './sdk-error.js';
import { parseToolArguments, toolInputObject } from './tool-input.js';

export { ModelError, type ModelErrorKind } from './errors.js';
export type { RetryOptions } from './retry.js';

/** Options of {@link anthropic}. */
export interface AnthropicOptions extends RetryOptions {
  /** The model id, e.g. `claude-sonnet-4-5`. */
  model: string;
  /** The API key. Default: the `ANTHROPIC_API_KEY` environment variable (read by the SDK at the first call). */
  apiKey?: string;
  /** The API's base URL. Default: `ANTHROPIC_BASE_URL`, else `https://api.anthropic.com`. */
  baseURL?: string;
  /** `max_tokens` of every request. Default 4096. */
  maxTokens?: number;
  /**
   * Put `cache_control` breakpoints on the stable prefix (tools, system prompt, older messages) so
   * Anthropic's prompt cache serves it on the next step. Default true.
   */
  cache?: boolean;
  /** Milliseconds before one HTTP attempt times out (a network error, so retried). Default 600 000. */
  timeoutMs?: number;
  /** Extra HTTP headers sent with every request (e.g. `anthropic-beta`). */
  headers?: Record<string, string>;
  /** Extra fields merged into every request body (e.g. `{ stop_sequences: […] }`, `{ metadata: {…} }`). */
  extraBody?: Record<string, unknown>;
  /** A custom `fetch` (proxies, tests). */
  fetch?: typeof globalThis.fetch;
  /** A client you configured yourself; `apiKey`, `baseURL`, `headers` and `fetch` are then ignored. */
  client?: Anthropic;
}

const LABELS: ProviderLabels = { provider: 'anthropic', apiKeyEnv: 'ANTHROPIC_API_KEY', factory: 'anthropic()' };
const CACHE = { type: 'ephemeral' } as const;

type Block = Anthropic.ContentBlockParam;
type Turn = { role: 'user' | 'assistant'; content: Block[] };

/** The Messages API body (without `stream`) for a request, exactly as the adapter sends it. */
export function anthropicRequestBody(
  req: ModelRequest,
  options: Pick<AnthropicOptions, 'model' | 'maxTokens' | 'cache' | 'extraBody'>,
): Anthropic.MessageCreateParamsNonStreaming {
  const cache = options.cache !== false;
  const placed = placeContext(req);
  const body: Anthropic.MessageCreateParamsNonStreaming = {
    model: options.model,
    max_tokens: options.maxTokens ?? 4096,
    messages: [],
  };

  const system = systemBlocks(req, placed.system, cache);
  if (system.length > 0) body.system = system;

  if (req.tools.length > 0) {
    body.tools = req.tools.map((tool, i) => ({
      name: tool.name,
      description: tool.description,
      input_schema: tool.inputSchema as Anthropic.Tool['input_schema'],
      ...(cache && i === req.tools.length - 1 ? { cache_control: CACHE } : {}),
    }));
  }

  const turns = toTurns(placed.messages);
  if (cache) {
    // The stable prefix ends before the turn that carries the context ('end'), or at the last turn ('system').
    const stableEnd = req.contextPlacement === 'system' ? turns.length - 1 : lastUserTurn(turns) - 1;
    const turn = turns[stableEnd];
    if (turn) {
      const last = turn.content.length - 1;
      turn.content[last] = { ...turn.content[last], cache_control: CACHE } as Block;
    }
  }
  body.messages = turns;
  return { ...body, ...(options.extraBody ?? {}) } as Anthropic.MessageCreateParamsNonStreaming;
}

/** System blocks: with `'system'` placement, the stable prompt and the context are separate blocks. */
function systemBlocks(req: ModelRequest, placedSystem: string, cache: boolean): Anthropic.TextBlockParam[] {
  if (!placedSystem) return [];
  const split = req.contextPlacement === 'system' && req.system !== '' && placedSystem.startsWith(req.system);
  if (!split) return [{ type: 'text', text: placedSystem, ...(cache ? { cache_control: CACHE } : {}) }];
  const rest = placedSystem.slice(req.system.length);
  const blocks: Anthropic.TextBlockParam[] = [
    { type: 'text', text: req.system, ...(cache ? { cache_control: CACHE } : {}) },
  ];
  if (rest) blocks.push({ type: 'text', text: rest });
  return blocks;
}

function lastUserTurn(turns: Turn[]): number {
  for (let i = turns.length - 1; i >= 0; i--) if (turns[i].role === 'user') return i;
  return -1;
}

/**
 * Transcript messages as Messages API turns: tool results become `tool_result` blocks in a user turn,
 * consecutive user-role messages are merged into one turn (tool results first), and consecutive
 * assistant messages likewise.
 */
function toTurns(messages: Message[]): Turn[] {
  const turns: Turn[] = [];
  const push = (role: Turn['role'], blocks: Block[]) => {
    if (blocks.length === 0) return;
    const last = turns[turns.length - 1];
    if (last && last.role === role) last.content.push(...blocks);
    else turns.push({ role, content: blocks });
  };
  for (const message of messages) {
    if (message.role === 'user') {
      push('user', message.content ? [{ type: 'text', text: message.content }] : []);
    } else if (message.role === 'tool') {
      push('user', [
        {
          type: 'tool_result',
          tool_use_id: message.toolCallId,
          content: message.content,
          ...(message.isError ? { is_error: true } : {}),
        },
      ]);
    } else {
      const blocks: Block[] = [];
      if (message.content) blocks.push({ type: 'text', text: message.content });
      for (const call of message.toolCalls ?? []) {
        blocks.push({ type: 'tool_use', id: call.id, name: call.name, input: toolInputObject(call.input) });
      }
      push('assistant', blocks);
    }
  }
  for (const turn of turns) {
    if (turn.role !== 'user') continue;
    // Anthropic wants a user turn's tool_result blocks before any text.
    const results = turn.content.filter((b) => b.type === 'tool_result');
    if (results.length > 0) turn.content = [...results, ...turn.content.filter((b) => b.type !== 'tool_result')];
  }
  return turns;
}

type RawUsage = Partial<
  Pick<Anthropic.Usage, 'input_tokens' | 'output_tokens' | 'cache_read_input_tokens' | 'cache_creation_input_tokens'>
>;

/** Anthropic usage as skilltree `Usage`. `inputTokens` counts every prompt token, cached or not. */
export function anthropicUsage(raw: RawUsage | null | undefined): Usage | undefined {
  if (!raw || typeof raw !== 'object') return undefined;
  const read = raw.cache_read_input_tokens ?? undefined;
  const write = raw.cache_creation_input_tokens ?? undefined;
  const usage: Usage = {};
  if (typeof raw.input_tokens === 'number') usage.inputTokens = raw.input_tokens + (read ?? 0) + (write ?? 0);
  if (typeof raw.output_tokens === 'number') usage.outputTokens = raw.output_tokens;
  if (typeof read === 'number') usage.cacheReadTokens = read;
  if (typeof write === 'number') usage.cacheWriteTokens = write;
  return usage;
}

function mergeUsage(into: RawUsage, from: unknown): void {
  if (!from || typeof from !== 'object') return;
  for (const [key, value] of Object.entries(from)) {
    if (typeof value === 'number') (into as Record<string, number>)[key] = value;
  }
}

function readResponse(response: unknown): ModelResponse {
  const content = (response as { content?: unknown } | null)?.content;
  if (!response || typeof response !== 'object' || !Array.isArray(content)) {
    throw malformedError('anthropic', `expected a message with a content array, got ${preview(response)}`);
  }
  let text = '';
  const toolCalls: ToolCall[] = [];
  for (const block of content as Array<Record<string, unknown>>) {
    if (block?.type === 'text' && typeof block.text === 'string') text += block.text;
    else if (block?.type === 'tool_use') {
      if (typeof block.id !== 'string' || typeof block.name !== 'string') {
        throw malformedError('anthropic', `a tool_use block without id or name: ${preview(block)}`);
      }
      toolCalls.push({ id: block.id, name: block.name, input: parseToolArguments(block.input) });
    }
  }
  const usage = anthropicUsage((response as { usage?: RawUsage }).usage);
  return usage ? { text, toolCalls, usage } : { text, toolCalls };
}

function preview(value: unknown): string {
  const text = typeof value === 'string' ? JSON.stringify(value) : (JSON.stringify(value) ?? String(value));
  return text.length > 200 ? `${text.slice(0, 200)}…` : text;
}

/** Converts the raw SSE events of one response into stream parts. */
async function* readEvents(events: AsyncIterable<Anthropic.RawMessageStreamEvent>): AsyncGenerator<ModelStreamPart> {
  const usage: RawUsage = {};
  const tools = new Map<number, { id: string; name: string; json: string; input: unknown }>();
  let stopped = false;
  for await (const event of events) {
    switch (event.type) {
      case 'message_start':
        mergeUsage(usage, event.message?.usage);
        break;
      case 'content_block_start': {
        const block = event.content_block;
        if (block.type === 'text' && block.text) yield { type: 'text-delta', text: block.text };
        else if (block.type === 'tool_use') {
          tools.set(event.index, { id: block.id, name: block.name, json: '', input: block.input });
        }
        break;
      }
      case 'content_block_delta': {
        const delta = event.delta;
        if (delta.type === 'text_delta') {
          if (delta.text) yield { type: 'text-delta', text: delta.text };
        } else if (delta.type === 'input_json_delta') {
          const tool = tools.get(event.index);
          if (!tool)
            throw malformedError('anthropic', `input_json_delta for block ${event.index}, which is not a tool_use`);
          tool.json += delta.partial_json;
        }
        break;
      }
      case 'content_block_stop': {
        const tool = tools.get(event.index);
        if (tool) {
          tools.delete(event.index);
          const input = tool.json ? parseToolArguments(tool.json) : parseToolArguments(tool.input);
          yield { type: 'tool-call', id: tool.id, name: tool.name, input };
        }
        break;
      }
      case 'message_delta':
        mergeUsage(usage, event.usage);
        break;
      case 'message_stop':
        stopped = true;
        break;
    }
  }
  if (!stopped) {
    throw networkError('anthropic', new Error('the stream ended before message_stop (connection dropped?)'));
  }
  yield { type: 'finish', usage: anthropicUsage(usage) };
}

/**
 * A skilltree {@link Model} for the Anthropic Messages API.
 *
 * ```ts
 * import { anthropic } from '@skilltree/models/anthropic';
 * const session = createSession(<ShopAgent />, { model: anthropic({ model: 'claude-sonnet-4-5' }) });
 * ```
 *
 * Reads `ANTHROPIC_API_KEY` and `ANTHROPIC_BASE_URL` when `apiKey` / `baseURL` are not given.
 * Retries 429, 5xx and network errors with exponential backoff and jitter, honouring `retry-after`.
 */
export function anthropic(options: AnthropicOptions): Model {
  if (!options || typeof options.model !== 'string' || options.model === '') {
    throw new TypeError('anthropic(): pass { model }, e.g. anthropic({ model: "claude-sonnet-4-5" }).');
  }
  const policy = retryPolicy(options);
  const timeout = options.timeoutMs ?? 600_000;
  let client = options.client;
  const getClient = (): Anthropic => {
    client ??= new Anthropic({
      apiKey: options.apiKey,
      baseURL: options.baseURL,
      maxRetries: 0,
      timeout,
      defaultHeaders: options.headers,
      fetch: options.fetch,
    });
    return client;
  };
  const toError = (error: unknown) => fromSdkError(error, LABELS);
  const requestOptions = (signal?: AbortSignal) => ({ signal, maxRetries: 0, timeout });

  return {
    name: `anthropic:${options.model}`,
    async generate(req: ModelRequest, opts: ModelCallOptions = {}): Promise<ModelResponse> {
      const body = anthropicRequestBody(req, options);
      const response = await withRetry({ policy, signal: opts.signal, toError }, () =>
        getClient().messages.create(body, requestOptions(opts.signal)),
      );
      return readResponse(response);
    },
    stream(req: ModelRequest, opts: ModelCallOptions = {}): AsyncIterable<ModelStreamPart> {
      const body = anthropicRequestBody(req, options);
      return streamWithRetry({ policy, signal: opts.signal, toError }, async function* () {
        const events = await getClient().messages.create({ ...body, stream: true }, requestOptions(opts.signal));
        yield* readEvents(events);
      });
    },
  };
}
