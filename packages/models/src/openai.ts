/**
 * `@skilltree/models/openai`: OpenAI's Responses API (the default) or Chat Completions
 * (`api: 'chat'`) through the official `openai` SDK, so any OpenAI-compatible server works (OpenAI,
 * Ollama, vLLM, llama.cpp, LM Studio, …).
 *
 * @packageDocumentation
 */
import type {
  Model,
  ModelAccepts,
  ModelCallOptions,
  ModelRequest,
  ModelResponse,
  ModelStreamPart,
} from '@skilltree/core/provider';
import OpenAI from 'openai';
import { type DeadlineSettings, deadlineCall, deadlineStream, resolveTimeout, sdkTimeout } from './deadline.js';
import { ModelError } from './errors.js';
import type { HttpModelOptions } from './http-options.js';
import { openaiRequestBody, readChatChunks, readChatResponse } from './openai-chat.js';
import { OPENAI_MODELS, openaiModelInfo, reasonsWith } from './openai-models.js';
import { openaiResponsesBody, PROVIDER } from './openai-responses.js';
import { readResponsesEvents, readResponsesResponse } from './openai-responses-read.js';
import { env, reasoningSource } from './reasoning-source.js';
import { retryPolicy, streamWithRetry, withRetry } from './retry.js';
import { fromSdkError, missingKeyError, type ProviderLabels } from './sdk-error.js';

export { ModelError, type ModelErrorKind } from './errors.js';
export type { HttpModelOptions } from './http-options.js';
export type { ModelPricing } from './model-pricing.js';
export { type OpenAIChatBodyOptions, openaiRequestBody, openaiUsage } from './openai-chat.js';
export { OPENAI_FILE_LIMITS, OPENAI_IMAGE_TYPES } from './openai-files.js';
export {
  canReason,
  OPENAI_MODELS,
  type OpenAIModelInfo,
  type OpenAIModelRow,
  type OpenAIReasoning,
  openaiModelInfo,
  reasonsWith,
} from './openai-models.js';
export {
  functionTool,
  messageItems,
  noteItems,
  type OpenAIResponsesBodyOptions,
  openaiResponsesBody,
  replays,
} from './openai-responses.js';
export { openaiResponsesUsage } from './openai-responses-read.js';
export type { RetryOptions } from './retry.js';

/** Which OpenAI API the adapter speaks. */
export type OpenAIApi = 'responses' | 'chat';

/** `reasoningEffort` values the APIs take (each model takes some of them). */
export type OpenAIReasoningEffort = 'none' | 'minimal' | 'low' | 'medium' | 'high' | 'xhigh' | 'max';

/** Options of {@link openai}. */
export interface OpenAIOptions extends HttpModelOptions {
  /** The model id, e.g. `gpt-5.6`, `gpt-4.1-mini`, or a local model such as `qwen3:8b` (Ollama). */
  model: string;
  /**
   * `'responses'` (default): the Responses API, stateless (`store: false`), reasoning replayed from
   * its encrypted content. `'chat'`: Chat Completions, for OpenAI-compatible servers that have only
   * that. Left out, a server without `/responses` (HTTP 404 at a `baseURL` of your own) makes the
   * adapter switch to Chat Completions, and say so once on stderr; set `'responses'` to get the
   * error instead.
   */
  api?: OpenAIApi;
  /**
   * The API key. Default: the `OPENAI_API_KEY` environment variable. Local servers that do not check
   * keys still need a value here (any string, e.g. `'ollama'`).
   */
  apiKey?: string;
  /**
   * The server's base URL, up to and including `/v1`. Default: `OPENAI_BASE_URL`, else
   * `https://api.openai.com/v1`. Ollama: `http://localhost:11434/v1`; vLLM: `http://localhost:8000/v1`;
   * llama.cpp: `http://localhost:8080/v1`.
   */
  baseURL?: string;
  /** Sent as `max_output_tokens` (Responses) or `max_tokens` (Chat Completions). Default: not sent. */
  maxTokens?: number;
  /** Sampling temperature. Default: the server's. (Reasoning models refuse it.) */
  temperature?: number;
  /**
   * How much the model reasons: `reasoning.effort` (Responses) or `reasoning_effort` (Chat
   * Completions). Default: not sent, so each model reasons as it does by default (see
   * {@link OPENAI_MODELS}). `'none'` turns reasoning off where a model allows it.
   */
  reasoningEffort?: OpenAIReasoningEffort;
  /**
   * Ask for reasoning summaries (`reasoning.summary`, Responses only): they stream as
   * `reasoning-delta` events and are the `text` of the reasoning parts. Default: none (OpenAI gives
   * summaries only to verified organizations).
   */
  reasoningSummary?: 'auto' | 'concise' | 'detailed';
  /**
   * Send append-only requests (each the previous request plus what is new; see docs/models.md).
   * Default: on the Responses API, for the models whose reasoning is bound to the prefix
   * ({@link OPENAI_MODELS}) when they reason; pass it for a model the table does not know.
   */
  appendOnly?: boolean;
  /**
   * The kinds of file the model reads (`Model.accepts`). Default: the model table's row
   * ({@link OPENAI_MODELS}), else images and PDFs. A file of another kind is sent as a line of
   * text describing it. `{ images: false, pdf: false }` for a local model without vision;
   * `{ audio: true }` for a model that takes audio in (`gpt-audio`, on Chat Completions: WAV and MP3
   * go as `input_audio`; the Responses API takes no audio).
   */
  accepts?: ModelAccepts;
  /** Chat Completions: ask for token usage in streams (`stream_options.include_usage`). Default true. */
  streamUsage?: boolean;
  /** `OpenAI-Organization` header. Default: the SDK's (`OPENAI_ORG_ID`). */
  organization?: string;
  /** A client you configured yourself; `apiKey`, `baseURL`, `headers`, `organization` and `fetch` are then ignored. */
  client?: OpenAI;
}

const LABELS: ProviderLabels = { provider: 'openai', apiKeyEnv: 'OPENAI_API_KEY', factory: 'openai()' };

/** OpenAI's own endpoint: it always has `/responses`, so a 404 there is never "no such route". */
const OPENAI_URL = /^https:\/\/api\.openai\.com\/v1\/?$/;

/** Base URLs already said to have no `/responses`, so each is said once per process. */
const withoutResponses = new Set<string>();

/** Whether `error` is a 404 for the route rather than for the model (which servers also answer with 404). */
function noSuchRoute(error: unknown): error is ModelError {
  if (!(error instanceof ModelError) || error.status !== 404) return false;
  const cause = error.cause as { code?: unknown } | undefined;
  return cause?.code !== 'model_not_found' && !/model/i.test(error.message);
}

/** `error` with the way out said: a 404 for `/responses` is a server that speaks only Chat Completions. */
function withChatHint(error: ModelError, base: string): ModelError {
  return new ModelError(
    `${error.message}. ${base.replace(/\/$/, '')}/responses was not found: if this server has only Chat Completions, pass { api: 'chat' } to openai().`,
    { provider: error.provider, kind: error.kind, status: error.status, retryable: false, cause: error.cause },
  );
}

/** Checks the options a model refuses whatever the request, naming the fix. */
function checkOptions(options: OpenAIOptions): void {
  if (options.api !== undefined && options.api !== 'responses' && options.api !== 'chat') {
    throw new TypeError(`openai(): api must be 'responses' or 'chat' (got ${JSON.stringify(options.api)}).`);
  }
  const info = openaiModelInfo(options.model);
  const effort = options.reasoningEffort;
  if (effort !== undefined && typeof effort !== 'string') {
    throw new TypeError(`openai(): reasoningEffort must be a string such as 'low' (got ${JSON.stringify(effort)}).`);
  }
  if (info?.reasoning === 'always' && effort === 'none') {
    throw new TypeError(
      `openai(): ${options.model} always reasons and refuses reasoningEffort 'none': pass 'low' (or 'minimal' where it takes it), or leave reasoningEffort out.`,
    );
  }
  if (info?.reasoning === 'none' && effort !== undefined && effort !== 'none') {
    throw new TypeError(`openai(): ${options.model} does not reason: leave reasoningEffort out.`);
  }
  if (info?.reasoning === 'none' && options.reasoningSummary !== undefined) {
    throw new TypeError(`openai(): ${options.model} does not reason: leave reasoningSummary out.`);
  }
}

/**
 * A skilltree {@link Model} for OpenAI's Responses API (the default) or the Chat Completions API of
 * OpenAI or any OpenAI-compatible server (`api: 'chat'`).
 *
 * ```ts
 * import { openai } from '@skilltree/models/openai';
 * const model = openai({ model: 'gpt-5.6' });                                       // OPENAI_API_KEY
 * const local = openai({ model: 'qwen3:8b', baseURL: 'http://localhost:11434/v1', apiKey: 'ollama', api: 'chat' });
 * ```
 *
 * Reads `OPENAI_API_KEY` and `OPENAI_BASE_URL` when `apiKey` / `baseURL` are not given.
 * Retries 429, 5xx and network errors with exponential backoff and jitter, honouring `retry-after`.
 * `timeoutMs` also bounds each wait between stream events.
 *
 * Responses: stateless (`store: false`); a model that reasons returns its reasoning encrypted
 * (`include: ['reasoning.encrypted_content']`), kept as reasoning parts and sent back with the
 * conversation, to the same model only. Models whose reasoning is bound to the prefix
 * ({@link OPENAI_MODELS}) get append-only requests (`Model.appendOnly`): the session's notes go as
 * `developer` messages and added tools as `additional_tools`.
 *
 * Chat Completions: reasoning is not sent back (the API has no way to); a model that refuses
 * function tools with reasoning there (GPT-5.4 and later) fails before the request, naming the fix.
 *
 * Usage: `inputTokens` is every input token the request carried (cached ones included),
 * `cacheReadTokens` the cached part, `reasoningTokens` the reasoning part of `outputTokens`.
 *
 * Tool calls without an id (some compatible servers leave it out) get a random `call_…` id, unique
 * across steps, adapter instances and processes. Requests are serialised deterministically (fixed
 * key order, no ids or timestamps of the adapter's own) so that the automatic prefix cache hits.
 */
export function openai(options: OpenAIOptions): Model {
  if (!options || typeof options.model !== 'string' || options.model === '') {
    throw new TypeError('openai(): pass { model }, e.g. openai({ model: "gpt-5.6" }).');
  }
  checkOptions(options);
  const model = options.model;
  const info = openaiModelInfo(model);
  const policy = retryPolicy(options);
  const timeoutMs = resolveTimeout(options.timeoutMs, 'openai()');
  const timeout = sdkTimeout(timeoutMs);
  const deadline: DeadlineSettings = { timeoutMs, provider: LABELS.provider, model };
  let api: OpenAIApi = options.api ?? 'responses';
  let client = options.client;
  // Who this adapter is, as its reasoning parts name it: its endpoint too, when it is not OpenAI's
  // (an OpenAI-compatible server's reasoning never goes to OpenAI, nor OpenAI's to it).
  const source = reasoningSource(
    PROVIDER,
    model,
    options.client?.baseURL ?? options.baseURL ?? env('OPENAI_BASE_URL'),
    'https://api.openai.com/v1',
  );
  const getClient = (): OpenAI => {
    if (client) return client;
    const apiKey = options.apiKey ?? process.env.OPENAI_API_KEY;
    if (!apiKey) throw missingKeyError(LABELS);
    client = new OpenAI({
      apiKey,
      baseURL: options.baseURL,
      organization: options.organization,
      maxRetries: 0,
      timeout,
      defaultHeaders: options.headers,
      fetch: options.fetch,
    });
    return client;
  };
  const toError = (error: unknown) => fromSdkError(error, LABELS);
  const requestOptions = (signal?: AbortSignal) => ({ signal, maxRetries: 0, timeout });
  const base = () => getClient().baseURL;
  /** What the model reads on the API in use: the option, else the table's row, else images and PDFs. */
  const accepts = (): ModelAccepts => {
    const read = { images: true, pdf: true, audio: false, ...info?.accepts, ...options.accepts };
    return { ...read, audio: api === 'chat' && read.audio };
  };

  /** Chat Completions refuses function tools with reasoning for some models: say so before sending. */
  const checkChat = (req: ModelRequest) => {
    if (req.tools.length === 0 || !info?.chatRefusesToolsWithReasoning) return;
    if (!reasonsWith(model, options.reasoningEffort)) return;
    const why =
      options.reasoningEffort !== undefined
        ? `with reasoningEffort '${options.reasoningEffort}'`
        : 'with reasoning, which is on by default';
    const where =
      options.api === 'chat'
        ? "leave out api: 'chat' to use the Responses API"
        : `point baseURL at a server with /responses (${base()} has none)`;
    throw new ModelError(
      `openai: Chat Completions refuses function tools for ${model} ${why}, and every skilltree request with tools carries them. To use tools, ${where}, or pass reasoningEffort: 'none' to openai() to turn reasoning off.`,
      { provider: 'openai', kind: 'other' },
    );
  };

  /** After a 404 for `/responses`: switch to Chat Completions (saying so once), or explain the error. */
  const onNoResponses = (error: ModelError): void => {
    const url = base();
    if (options.api === 'responses' || OPENAI_URL.test(url)) throw withChatHint(error, url);
    api = 'chat';
    if (withoutResponses.has(url)) return;
    withoutResponses.add(url);
    console.warn(
      `openai: ${url} has no /responses (HTTP 404): using Chat Completions for ${model} from now on. Pass { api: 'chat' } to openai() to choose it and skip the first request.`,
    );
  };

  const chatGenerate = async (req: ModelRequest, opts: ModelCallOptions): Promise<ModelResponse> => {
    checkChat(req);
    const body = openaiRequestBody(req, { ...options, accepts: accepts() });
    const response = await withRetry({ policy, signal: opts.signal, toError }, () =>
      deadlineCall(deadline, opts.signal, (attempt) =>
        getClient().chat.completions.create(body, requestOptions(attempt.signal)),
      ),
    );
    return readChatResponse(response);
  };

  const responsesGenerate = async (req: ModelRequest, opts: ModelCallOptions): Promise<ModelResponse> => {
    const body = openaiResponsesBody(req, { ...options, accepts: accepts(), source });
    // Read inside the retry: a response that failed with `server_error` is tried again.
    return withRetry({ policy, signal: opts.signal, toError }, async () =>
      readResponsesResponse(
        await deadlineCall(deadline, opts.signal, (attempt) =>
          getClient().responses.create(body, requestOptions(attempt.signal)),
        ),
        source,
      ),
    );
  };

  const chatStream = (req: ModelRequest, opts: ModelCallOptions): AsyncIterable<ModelStreamPart> => {
    checkChat(req);
    const body: OpenAI.ChatCompletionCreateParamsStreaming = {
      ...openaiRequestBody(req, { ...options, accepts: accepts() }),
      stream: true,
    };
    if (options.streamUsage !== false) body.stream_options = { include_usage: true };
    return streamWithRetry({ policy, signal: opts.signal, toError }, () =>
      deadlineStream(deadline, opts.signal, async function* (attempt) {
        const chunks = await attempt.race(getClient().chat.completions.create(body, requestOptions(attempt.signal)));
        yield* readChatChunks(attempt.guard(chunks));
      }),
    );
  };

  const responsesStream = (req: ModelRequest, opts: ModelCallOptions): AsyncIterable<ModelStreamPart> => {
    const body: OpenAI.Responses.ResponseCreateParamsStreaming = {
      ...openaiResponsesBody(req, { ...options, accepts: accepts(), source }),
      stream: true,
    };
    return streamWithRetry({ policy, signal: opts.signal, toError }, () =>
      deadlineStream(deadline, opts.signal, async function* (attempt) {
        const events = await attempt.race(getClient().responses.create(body, requestOptions(attempt.signal)));
        yield* readResponsesEvents(attempt.guard(events as AsyncIterable<unknown>), source);
      }),
    );
  };

  return {
    name: `openai:${model}`,
    reasoningSource: source,
    // The cap sent with every request, when there is one: what an owner's budget reserves for a call's output.
    ...(options.maxTokens !== undefined ? { maxOutputTokens: options.maxTokens } : {}),
    /**
     * On the Responses API, the option, else the model table: a model whose reasoning is bound to the
     * prefix, when it reasons (nothing is bound without reasoning). False on Chat Completions.
     */
    get appendOnly(): boolean {
      if (api !== 'responses') return false;
      return options.appendOnly ?? (info?.prefixBoundReasoning === true && reasonsWith(model, options.reasoningEffort));
    },
    /** What the model reads (see {@link OpenAIOptions.accepts}); audio only on Chat Completions. */
    get accepts(): ModelAccepts {
      return accepts();
    },
    async generate(req: ModelRequest, opts: ModelCallOptions = {}): Promise<ModelResponse> {
      if (api === 'chat') return chatGenerate(req, opts);
      try {
        return await responsesGenerate(req, opts);
      } catch (error) {
        if (!noSuchRoute(error)) throw error;
        onNoResponses(error);
        return chatGenerate(req, opts);
      }
    },
    async *stream(req: ModelRequest, opts: ModelCallOptions = {}): AsyncGenerator<ModelStreamPart> {
      if (api === 'chat') {
        yield* chatStream(req, opts);
        return;
      }
      let yielded = false;
      try {
        for await (const part of responsesStream(req, opts)) {
          yielded = true;
          yield part;
        }
      } catch (error) {
        if (yielded || !noSuchRoute(error)) throw error;
        onNoResponses(error);
        yield* chatStream(req, opts);
      }
    },
  };
}
