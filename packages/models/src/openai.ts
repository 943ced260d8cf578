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
import { isOpenAIURL, openaiProvider } from './openai-provider.js';
import { openaiResponsesBody } from './openai-responses.js';
import { readResponsesEvents, readResponsesResponse } from './openai-responses-read.js';
import { retryPolicy, streamWithRetry, withRetry } from './retry.js';
import { fromSdkError } from './sdk-error.js';

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
  allowedToolChoice,
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
   * Who serves the model, for an OpenAI-compatible provider's adapter built on `openai()`: a
   * lowercase name such as `'acme'`. The model is then named `<provider>:<model-id>`, its reasoning
   * parts name that provider (so they are never replayed to OpenAI, nor OpenAI's to it), its errors
   * name it and `<provider>()`, `OPENAI_API_KEY` is never read (see {@link apiKeyEnv}), and the
   * `OpenAI-Organization` / `OpenAI-Project` headers the SDK takes from `OPENAI_ORG_ID` /
   * `OPENAI_PROJECT_ID` are never sent. Needs `baseURL` (or `client`). Default: `'openai'`.
   */
  provider?: string;
  /**
   * The API key. Default: the {@link apiKeyEnv} variable. Local servers that do not check keys still
   * need a value here (any string, e.g. `'ollama'`).
   */
  apiKey?: string;
  /**
   * The environment variable the key is read from when `apiKey` is not given, and that the error for
   * a missing key names, e.g. `'ACME_API_KEY'`. Default: `OPENAI_API_KEY`, but only for OpenAI's own
   * endpoint (or `OPENAI_BASE_URL`): with another `provider` or a `baseURL` that is not OpenAI's,
   * no variable is read unless named here, so OpenAI's key never goes to another server.
   */
  apiKeyEnv?: string;
  /**
   * The server's base URL, up to and including `/v1`. Default: `OPENAI_BASE_URL`, else
   * `https://api.openai.com/v1`. Ollama: `http://localhost:11434/v1`; vLLM: `http://localhost:8000/v1`;
   * llama.cpp: `http://localhost:8080/v1`. A URL that is not OpenAI's gets neither `OPENAI_API_KEY`
   * nor OpenAI's organization and project headers.
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
   * Whether the model reasons, for a model {@link OPENAI_MODELS} does not know (a compatible
   * provider's): `true` asks the Responses API for its reasoning encrypted
   * (`include: ['reasoning.encrypted_content']`), without which a stateless request can never send it
   * back. Default: the table's row, else a guess from the id (`o…`, `gpt-5…`, `gpt-oss…`).
   */
  reasoning?: boolean;
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
  /** `OpenAI-Organization` header. Default: the SDK's (`OPENAI_ORG_ID`), only for OpenAI's own endpoint. */
  organization?: string;
  /** A client you configured yourself; `apiKey`, `baseURL`, `headers`, `organization` and `fetch` are then ignored. */
  client?: OpenAI;
}

/** Base URLs already said to have no `/responses`, so each is said once per process. */
const withoutResponses = new Set<string>();

/** Whether `error` is a 404 for the route rather than for the model (which servers also answer with 404). */
function noSuchRoute(error: unknown): error is ModelError {
  if (!(error instanceof ModelError) || error.status !== 404) return false;
  const cause = error.cause as { code?: unknown } | undefined;
  return cause?.code !== 'model_not_found' && !/model/i.test(error.message);
}

/** `error` with the way out said: a 404 for `/responses` is a server that speaks only Chat Completions. */
function withChatHint(error: ModelError, base: string, factory: string): ModelError {
  return new ModelError(
    `${error.message}. ${base.replace(/\/$/, '')}/responses was not found: if this server has only Chat Completions, pass { api: 'chat' } to ${factory}.`,
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
 * Reads `OPENAI_API_KEY` and `OPENAI_BASE_URL` when `apiKey` / `baseURL` are not given; OpenAI's key
 * and account go only to OpenAI's endpoint or `OPENAI_BASE_URL`, never to a `baseURL` or `provider` of
 * another server (see {@link OpenAIOptions.provider} for an OpenAI-compatible provider's adapter).
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
  // Who this adapter is: its name, its errors, its key, and its reasoning's source (with its endpoint
  // when that is not OpenAI's, so a compatible server's reasoning never goes to OpenAI, nor OpenAI's to it).
  const who = openaiProvider({ ...options, clientBaseURL: options.client?.baseURL, hasClient: !!options.client });
  const { labels, source } = who;
  const deadline: DeadlineSettings = { timeoutMs, provider: labels.provider, model };
  let api: OpenAIApi = options.api ?? 'responses';
  let client = options.client;
  const getClient = (): OpenAI => {
    if (client) return client;
    client = new OpenAI({
      apiKey: who.apiKey(),
      baseURL: options.baseURL,
      organization: who.organization,
      project: who.project,
      maxRetries: 0,
      timeout,
      defaultHeaders: options.headers,
      fetch: options.fetch,
    });
    return client;
  };
  const toError = (error: unknown) => fromSdkError(error, labels);
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
      `${labels.provider}: Chat Completions refuses function tools for ${model} ${why}, and every skilltree request with tools carries them. To use tools, ${where}, or pass reasoningEffort: 'none' to openai() to turn reasoning off.`,
      { provider: labels.provider, kind: 'other' },
    );
  };

  /** After a 404 for `/responses`: switch to Chat Completions (saying so once), or explain the error. */
  const onNoResponses = (error: ModelError): void => {
    const url = base();
    // OpenAI's own endpoint always has `/responses`, so a 404 there is never "no such route".
    if (options.api === 'responses' || isOpenAIURL(url)) throw withChatHint(error, url, labels.factory);
    api = 'chat';
    if (withoutResponses.has(url)) return;
    withoutResponses.add(url);
    console.warn(
      `${labels.provider}: ${url} has no /responses (HTTP 404): using Chat Completions for ${model} from now on. Pass { api: 'chat' } to ${labels.factory} to choose it and skip the first request.`,
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
    name: who.name,
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
