/**
 * OpenAI's documented rules, as a test server enforces them: a request that breaks one gets the 400
 * the API sends (its text), and reasoning that would be dropped is counted. Sources: the Chat
 * Completions refusal of function tools with reasoning (GPT-5.4 and later: `Function tools with
 * reasoning_effort are not supported for gpt-5.6 in /v1/chat/completions. To use function tools,
 * use /v1/responses or set reasoning_effort to 'none'.`), the file input limits and types (images and
 * vision, file inputs; see `filesProblem`: the messages are OpenAI's where known), the reasoning guide (which models reason by
 * default; stateless use with `store: false` and `include: ['reasoning.encrypted_content']`, an item
 * id alone refused), the guide "Keep the prefix unchanged" (reasoning items that follow a prefix
 * change are dropped), and the Responses API's errors for unpaired function calls and outputs.
 *
 * Every reasoning item the server returns carries encrypted content of its own making: an HMAC over
 * the item's id, the model and a digest of the exact prefix before it (`instructions`, `tools` and
 * every earlier input item). A request that replays it is checked against all three: a tampered or
 * foreign item is refused, and one whose prefix changed is counted in `droppedReasoning` (the API
 * drops it and goes on; it is not an error).
 */
import { createHash, createHmac, randomBytes } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { openaiChunkObject, openaiCompletionObject, openaiUsageObject } from '@skilltree/test-kit';
import { allowedNames, allowedToolsProblem } from './openai-allowed-tools.js';
import { type OutputItem, outputItems, type ResponsesUsage, responseEvents, responseObject } from './openai-wire.js';
import { type Handler, json, type SseEvent, sse } from './server.js';

/** GPT-5.4 and its small models: they reason only when asked. */
const GPT_5_4 = ['gpt-5.4', 'gpt-5.4-mini', 'gpt-5.4-nano'];
/** GPT-5.5 and later: they reason by default. */
const GPT_5_5_ON = ['gpt-5.5', 'gpt-5.6', 'gpt-5.6-sol', 'gpt-5.6-terra', 'gpt-5.6-luna'];

/** Models that refuse function tools with reasoning on Chat Completions. */
export const CHAT_REFUSES_TOOLS_WITH_REASONING = [...GPT_5_4, ...GPT_5_5_ON];
/** Models that reason unless `reasoning_effort` is `'none'` (default effort `medium`). */
const REASONS_BY_DEFAULT = ['o1', 'o3', 'o3-mini', 'o4-mini', 'gpt-5', 'gpt-5-mini', 'gpt-5-nano', ...GPT_5_5_ON];
/** Models that reason only when asked (default effort `none`). */
const REASONS_WHEN_ASKED = ['gpt-5.1', 'gpt-5.2', ...GPT_5_4];
/** Models whose reasoning items following a prefix change are dropped. */
export const DROPS_AFTER_PREFIX_CHANGE = [...GPT_5_4, ...GPT_5_5_ON];

/** The API's text for tools with reasoning on Chat Completions. */
export const chatToolsRefusal = (model: string) =>
  `Function tools with reasoning_effort are not supported for ${model} in /v1/chat/completions. To use function tools, use /v1/responses or set reasoning_effort to 'none'.`;

/** The API's text for a reasoning item replayed by id alone without storage. */
export const notPersisted = (id: string) =>
  `Item with id '${id}' not found. Items are not persisted when \`store\` is set to false. Try again with \`store\` set to true, or remove this item from your input.`;

const bare = (model: string) => model.replace(/^openai\//, '').replace(/-\d{4}-\d{2}-\d{2}$/, '');

/** The effort a request reasons with on `model`: the one it names, else the model's default. */
function effortOf(model: string, named: unknown): string {
  if (typeof named === 'string') return named;
  if (REASONS_BY_DEFAULT.includes(bare(model))) return 'medium';
  return 'none';
}

/** Whether a request to `model` reasons. */
function reasons(model: string, named: unknown): boolean {
  const m = bare(model);
  if (!REASONS_BY_DEFAULT.includes(m) && !REASONS_WHEN_ASKED.includes(m)) return false;
  return effortOf(model, named) !== 'none';
}

/** JSON with sorted keys and without `undefined`: what is compared, whatever the key order. */
export function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (value && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonical(v)}`).join(',')}}`;
  }
  return JSON.stringify(value);
}

type Item = { type?: string; role?: string; [key: string]: any };

/** An input item as the model reads it: a message's string content as its one text part, and no `status`. */
function normalized(item: Item): Item {
  const { status: _status, ...rest } = item;
  if (rest.role && (rest.type === undefined || rest.type === 'message')) {
    const content =
      typeof rest.content === 'string'
        ? [{ type: rest.role === 'assistant' ? 'output_text' : 'input_text', text: rest.content }]
        : rest.content;
    return { ...rest, type: 'message', content };
  }
  return rest;
}

/** The digest of what comes before input item `index`: instructions, tools and the items before it. */
function prefixDigest(body: any, index: number): string {
  const input: Item[] = Array.isArray(body.input) ? body.input : [];
  const prefix = {
    instructions: body.instructions ?? null,
    tools: body.tools ?? [],
    input: input.slice(0, index).map(normalized),
  };
  return createHash('sha256').update(canonical(prefix)).digest('base64url');
}

const SECRET = randomBytes(16);
const mac = (text: string) => createHmac('sha256', SECRET).update(text).digest('base64url');

/** Encrypted content for a reasoning item: its id, the model and the prefix digest, signed. */
function encrypt(id: string, model: string, prefix: string): string {
  const payload = Buffer.from(JSON.stringify({ id, model: bare(model), prefix })).toString('base64url');
  return `enc.${payload}.${mac(payload)}`;
}

function decrypt(content: string): { id: string; model: string; prefix: string } | null {
  const [tag, payload, signature] = content.split('.');
  if (tag !== 'enc' || !payload || signature !== mac(payload)) return null;
  return JSON.parse(Buffer.from(payload, 'base64url').toString('utf8'));
}

// ───────────── files: OpenAI's documented limits and types (see src/openai-files.ts for the sources) ─────────────

const MB = 1024 * 1024;
/** Models that take `input_audio` (Chat Completions only). */
export const AUDIO_MODELS = ['gpt-audio', 'gpt-audio-mini', 'gpt-4o-audio-preview', 'gpt-4o-mini-audio-preview'];
/** Models that take no image or PDF input. */
export const TEXT_ONLY_MODELS = ['o3-mini', ...AUDIO_MODELS];

/** The API's text for an image of a type it does not read. */
export const unsupportedImage =
  "You uploaded an unsupported image. Please make sure your image has of one the following formats: ['png', 'jpeg', 'gif', 'webp'].";

/** A `data:` URL read back: its media type and the bytes it carries (by its base64 length). */
function dataUrlOf(url: unknown): { mediaType: string; bytes: number; data: string } | null {
  const match = typeof url === 'string' ? /^data:([^;,]+);base64,(.*)$/s.exec(url) : null;
  if (!match) return null;
  const data = match[2];
  const padding = data.endsWith('==') ? 2 : data.endsWith('=') ? 1 : 0;
  return { mediaType: match[1], bytes: Math.floor((data.length * 3) / 4) - padding, data };
}

/** Pages of a PDF: its `/Type /Page` objects. */
const pagesOf = (data: string) =>
  Buffer.from(data, 'base64')
    .toString('latin1')
    .match(/\/Type\s*\/Page(?![a-zA-Z])/g)?.length ?? 0;

/**
 * What the files of a request break, or null: images of a type OpenAI does not read, over 20 MB
 * each, over 50 MB or 500 images per request; file content over 32 MB or 100 PDF pages per request;
 * on Chat Completions, a file part that is not a PDF's bytes, and audio for a model that takes none;
 * on the Responses API, any audio (its input content has none); images and PDFs for a text-only model.
 */
export function filesProblem(body: any, api: 'responses' | 'chat'): string | null {
  const model = bare(String(body?.model));
  let images = 0;
  let imageBytes = 0;
  let fileBytes = 0;
  let pages = 0;
  const contents: any[][] = [];
  const items: Item[] = api === 'responses' ? (Array.isArray(body?.input) ? body.input : []) : (body?.messages ?? []);
  for (const item of items) {
    const content = item.type === 'function_call_output' ? item.output : item.content;
    if (Array.isArray(content)) contents.push(content);
  }
  for (const content of contents) {
    for (const part of content) {
      const image =
        part?.type === 'input_image' ? part.image_url : part?.type === 'image_url' ? part.image_url?.url : undefined;
      if (image !== undefined) {
        if (TEXT_ONLY_MODELS.includes(model))
          return `Invalid content type. image_url is only supported by certain models.`;
        const inline = dataUrlOf(image);
        if (!inline) continue;
        if (!['image/png', 'image/jpeg', 'image/webp', 'image/gif'].includes(inline.mediaType)) return unsupportedImage;
        if (inline.bytes > 20 * MB)
          return `Image too large: ${inline.bytes} bytes. The maximum size of an image is 20 MB.`;
        images++;
        imageBytes += inline.bytes;
        if (images > 500) return 'Too many images in request. Max is 500.';
        if (imageBytes > 50 * MB) return 'Total image size in request exceeds the limit of 50 MB.';
        continue;
      }
      const file = part?.type === 'input_file' ? part : part?.type === 'file' ? part.file : undefined;
      if (file !== undefined) {
        const inline = dataUrlOf(file.file_data);
        if (api === 'chat' && inline?.mediaType !== 'application/pdf') {
          return "Invalid file data: expected a base64-encoded data URL with an application/pdf MIME type (e.g. 'data:application/pdf;base64,SGVsbG8sIFdvcmxkIQ==').";
        }
        if (!inline) continue;
        if (inline.mediaType === 'application/pdf' && TEXT_ONLY_MODELS.includes(model)) {
          return 'Invalid content type. PDF files are only supported by models with vision capabilities.';
        }
        fileBytes += inline.bytes;
        if (fileBytes > 32 * MB) return 'The total size of the files in this request exceeds the limit of 32 MB.';
        if (inline.mediaType === 'application/pdf') pages += pagesOf(inline.data);
        if (pages > 100) return 'The PDF files in this request have more than 100 pages in total, the limit.';
        continue;
      }
      if (part?.type === 'input_audio') {
        if (api === 'responses')
          return "Invalid value: 'input_audio'. Supported values are: 'input_text', 'input_image', and 'input_file'.";
        if (!AUDIO_MODELS.includes(model)) return `This model does not support audio input: ${model}.`;
        if (!['wav', 'mp3'].includes(part.input_audio?.format)) {
          return `Invalid value: '${part.input_audio?.format}'. Supported values are: 'wav' and 'mp3'.`;
        }
      }
    }
  }
  return null;
}

/** What a Responses request breaks, or null; `drops` collects the reasoning items the API would drop. */
export function responsesProblem(body: any, drops: { itemId: string; at: number }[]): string | null {
  if (typeof body?.model !== 'string') return "Missing required parameter: 'model'.";
  const input: Item[] = Array.isArray(body.input) ? body.input : [];
  const model = bare(body.model);
  const calls = new Set<string>();
  const outputs = new Set<string>();
  for (const item of input) if (item.type === 'function_call_output') outputs.add(item.call_id);
  for (const [i, item] of input.entries()) {
    if (item.type === 'reasoning') {
      const id = String(item.id);
      if (!item.encrypted_content) {
        if (body.store === false) return notPersisted(id);
        return `Item with id '${id}' not found.`;
      }
      const payload = decrypt(String(item.encrypted_content));
      if (!payload || payload.id !== id || payload.model !== model) {
        return `The encrypted content for item ${id} could not be verified.`;
      }
      const next = input[i + 1];
      const follows = next && (next.type === 'function_call' || next.type === 'reasoning' || next.role === 'assistant');
      if (!follows) return `Item '${id}' of type 'reasoning' was provided without its required following item.`;
      if (DROPS_AFTER_PREFIX_CHANGE.includes(model) && payload.prefix !== prefixDigest(body, i)) {
        drops.push({ itemId: id, at: i });
      }
    } else if (item.type === 'function_call') {
      if (!outputs.has(item.call_id)) return `No tool output found for function call ${item.call_id}.`;
      calls.add(item.call_id);
    } else if (item.type === 'function_call_output') {
      if (!calls.has(item.call_id)) return `No tool call found for function call output with call_id ${item.call_id}.`;
    } else if (item.type === 'additional_tools') {
      if (item.role !== 'developer') return `Invalid value: '${item.role}'. Supported values are: 'developer'.`;
      if (!Array.isArray(item.tools) || item.tools.some((t: Item) => t.type !== 'function' || !t.name)) {
        return `Invalid 'input[${i}].tools': each tool needs type 'function' and a name.`;
      }
    } else if (item.role !== undefined) {
      if (!['user', 'assistant', 'system', 'developer'].includes(item.role)) {
        return `Invalid value: '${item.role}'. Supported values are: 'assistant', 'system', 'developer', and 'user'.`;
      }
    } else {
      return `Invalid 'input[${i}]': unknown item ${JSON.stringify(item).slice(0, 80)}.`;
    }
  }
  return null;
}

/** What a Chat Completions request breaks, or null. */
export function chatProblem(body: any): { message: string; param: string | null } | null {
  const model = String(body?.model);
  const tools = Array.isArray(body?.tools) ? body.tools : [];
  if (
    tools.length > 0 &&
    CHAT_REFUSES_TOOLS_WITH_REASONING.includes(bare(model)) &&
    reasons(model, body.reasoning_effort)
  ) {
    return { message: chatToolsRefusal(model), param: 'reasoning_effort' };
  }
  const messages: Item[] = Array.isArray(body?.messages) ? body.messages : [];
  const open = new Set<string>();
  for (const m of messages) {
    if (m.role === 'tool') {
      if (!open.has(m.tool_call_id)) {
        return {
          message:
            "Invalid parameter: messages with role 'tool' must be a response to a preceeding message with 'tool_calls'.",
          param: 'messages',
        };
      }
      open.delete(m.tool_call_id);
      continue;
    }
    if (open.size > 0) {
      return {
        message: `An assistant message with 'tool_calls' must be followed by tool messages responding to each 'tool_call_id'. The following tool_call_ids did not have response messages: ${[...open].join(', ')}`,
        param: 'messages',
      };
    }
    for (const call of m.tool_calls ?? []) open.add(call.id);
  }
  return null;
}

/** The tools a Responses request offers: `tools` and every `additional_tools` item (nothing is withdrawn). */
export function offeredTools(body: any): string[] {
  const names = new Set<string>((body.tools ?? []).map((t: Item) => t.name));
  for (const item of (body.input ?? []) as Item[]) {
    if (item.type === 'additional_tools') for (const tool of item.tools) names.add(tool.name);
  }
  return [...names];
}

/** A scripted step: text and tool calls, and the reasoning summary a reasoning model writes first. */
export interface OpenAIStep {
  text?: string;
  toolCalls?: { id: string; name: string; input: unknown }[];
  /** The summary a reasoning model returns (when the request asks for summaries). Default `Thinking, step <n>.` */
  reasoning?: string;
}

/** A scripted OpenAI server: every request checked by the rules, then answered with the next step. */
export interface OpenAIScript {
  handler: Handler;
  /** Every refusal, with the request's index and path. */
  refusals: { request: number; path: string; problem: string }[];
  /** Reasoning items replayed after a prefix change (the API drops them): the request's index and the item. */
  drops: { request: number; itemId: string }[];
  /** How many reasoning items were dropped. */
  readonly droppedReasoning: number;
  /** The Responses requests that reasoned, by request index. */
  reasoned: number[];
  /**
   * Scripted calls of a declared tool that `tool_choice` does not allow: the model never produces
   * them (see `openai-allowed-tools.ts`), so they are left out of the reply. The request's index and the tool.
   */
  withheld: { request: number; name: string }[];
}

/** Options of {@link openaiScript}. */
export interface OpenAIScriptOptions {
  /** The server has no `/responses` (as many compatible servers): 404, as such a server answers. */
  chatOnly?: boolean;
}

const tokens = (chars: number) => Math.ceil(chars / 4);

function commonPrefix(a: string, b: string): number {
  let i = 0;
  while (i < a.length && i < b.length && a[i] === b[i]) i++;
  return i;
}

/**
 * A handler for `steps` in order (one per request that passes the rules), for `POST /v1/responses`
 * and `POST /v1/chat/completions`: a request that breaks a rule gets the API's 400 and is recorded
 * in `refusals` (its step is not used); reasoning replayed under a changed prefix is counted. A
 * request that reasons gets a reasoning item first (signed over the prefix, encrypted when it asks
 * with `include`). A step that calls a tool the request does not offer is the test's mistake: 418.
 * Usage counts the prompt's characters, and as cached the part shared with the previous request.
 */
export function openaiScript(steps: OpenAIStep[], options: OpenAIScriptOptions = {}): OpenAIScript {
  const refusals: OpenAIScript['refusals'] = [];
  const drops: OpenAIScript['drops'] = [];
  const reasoned: number[] = [];
  const withheld: OpenAIScript['withheld'] = [];
  let requests = 0;
  let n = 0;
  let previous = '';
  const refuse = (
    req: IncomingMessage,
    res: ServerResponse,
    body: any,
    path: string,
    message: string,
    param: string | null = null,
  ) => {
    refusals.push({ request: requests - 1, path, problem: message });
    return json(400, { error: { message, type: 'invalid_request_error', param, code: null } })(req, res, body);
  };
  const testError = (req: IncomingMessage, res: ServerResponse, body: any, message: string) =>
    json(418, { error: { type: 'test_error', message } })(req, res, body);

  const usageOf = (body: any, output: OutputItem[], reasonedTokens: number): ResponsesUsage => {
    const { stream: _stream, ...rest } = body;
    const prompt = canonical(rest);
    const cached = Math.floor(tokens(commonPrefix(previous, prompt)) / 16) * 16;
    previous = prompt;
    const input = tokens(prompt.length);
    const out = tokens(JSON.stringify(output).length);
    const written = DROPS_AFTER_PREFIX_CHANGE.includes(bare(String(body.model))) ? input - cached : 0;
    return {
      input_tokens: input,
      input_tokens_details: { cached_tokens: cached, cache_write_tokens: written },
      output_tokens: out + reasonedTokens,
      output_tokens_details: { reasoning_tokens: reasonedTokens },
      total_tokens: input + out + reasonedTokens,
    };
  };

  const handler: Handler = (req, res, body) => {
    const index = requests++;
    const path = (req.url ?? '').replace(/\?.*$/, '');
    if (path.endsWith('/responses')) {
      if (options.chatOnly) {
        return json(404, { error: { message: `no route POST ${path}`, type: 'invalid_request_error' } })(
          req,
          res,
          body,
        );
      }
      const found: { itemId: string; at: number }[] = [];
      const offered = offeredTools(body);
      const problem =
        responsesProblem(body, found) ??
        filesProblem(body, 'responses') ??
        allowedToolsProblem(body.tool_choice, offered, 'responses');
      if (problem) return refuse(req, res, body, path, problem);
      for (const drop of found) drops.push({ request: index, itemId: drop.itemId });
      const scripted = steps[n++];
      if (!scripted) return testError(req, res, body, 'no step scripted for this request');
      const stray = (scripted.toolCalls ?? []).find((c) => !offered.includes(c.name));
      if (stray) return testError(req, res, body, `the step calls ${stray.name}, which the request does not offer`);
      const step = allowedStep(scripted, allowedNames(body.tool_choice, 'responses'), index);
      const think = reasons(body.model, body.reasoning?.effort);
      let reasoning: { id: string; summary?: string[]; encrypted_content?: string | null } | undefined;
      if (think) {
        reasoned.push(index);
        const id = `rs_${randomBytes(8).toString('hex')}`;
        const encrypted = Array.isArray(body.include) && body.include.includes('reasoning.encrypted_content');
        reasoning = {
          id,
          summary: body.reasoning?.summary ? [step.reasoning ?? `Thinking, step ${n}.`] : [],
          ...(encrypted
            ? { encrypted_content: encrypt(id, body.model, prefixDigest(body, (body.input ?? []).length)) }
            : {}),
        };
      }
      const output = outputItems({ reasoning, text: step.text, toolCalls: step.toolCalls });
      const usage = usageOf(body, output, think ? 7 : 0);
      if (body.stream) return sse(responseEvents(output, usage, body.model))(req, res, body);
      return json(200, responseObject(output, usage, body.model))(req, res, body);
    }
    if (path.endsWith('/chat/completions')) {
      const files = filesProblem(body, 'chat');
      const declared = (Array.isArray(body?.tools) ? body.tools : []).map((t: Item) => t.function?.name);
      const allowed = allowedToolsProblem(body.tool_choice, declared, 'chat');
      const problem =
        chatProblem(body) ??
        (files ? { message: files, param: 'messages' } : null) ??
        (allowed ? { message: allowed, param: 'tool_choice' } : null);
      if (problem) return refuse(req, res, body, path, problem.message, problem.param);
      const scripted = steps[n++];
      if (!scripted) return testError(req, res, body, 'no step scripted for this request');
      const stray = (scripted.toolCalls ?? []).find((c) => !declared.includes(c.name));
      if (stray) return testError(req, res, body, `the step calls ${stray.name}, which the request does not declare`);
      return chatReply(req, res, body, allowedStep(scripted, allowedNames(body.tool_choice, 'chat'), index));
    }
    return json(404, { error: { message: `no route ${req.method} ${path}`, type: 'invalid_request_error' } })(
      req,
      res,
      body,
    );
  };
  /** `step` without the calls `allowed` leaves out (recorded in `withheld`): the model never makes them. */
  const allowedStep = (step: OpenAIStep, allowed: string[] | null, request: number): OpenAIStep => {
    if (allowed === null || !step.toolCalls) return step;
    for (const c of step.toolCalls) if (!allowed.includes(c.name)) withheld.push({ request, name: c.name });
    return { ...step, toolCalls: step.toolCalls.filter((c) => allowed.includes(c.name)) };
  };
  return {
    handler,
    refusals,
    drops,
    reasoned,
    withheld,
    get droppedReasoning() {
      return drops.length;
    },
  };
}

/** A chat completion for `step`, streamed when the body asks. */
function chatReply(req: IncomingMessage, res: ServerResponse, body: any, step: OpenAIStep) {
  const toolCalls = (step.toolCalls ?? []).map((c) => ({
    id: c.id,
    type: 'function',
    function: { name: c.name, arguments: typeof c.input === 'string' ? c.input : JSON.stringify(c.input) },
  }));
  const finish = toolCalls.length ? 'tool_calls' : 'stop';
  const usage = openaiUsageObject(50, 5, 0);
  if (!body.stream) return json(200, openaiCompletionObject(step, usage, body.model))(req, res, body);
  const chunk = (delta: unknown, reason: string | null = null): SseEvent => ({
    data: openaiChunkObject([{ index: 0, delta, finish_reason: reason }], {}, body.model),
  });
  const events: SseEvent[] = [chunk({ role: 'assistant', content: '' })];
  if (step.text) events.push(chunk({ content: step.text }));
  for (const [index, call] of toolCalls.entries()) events.push(chunk({ tool_calls: [{ index, ...call }] }));
  events.push(chunk({}, finish));
  if (body.stream_options?.include_usage) {
    events.push({ data: openaiChunkObject([], { usage }, body.model) });
  }
  events.push({ data: '[DONE]' });
  return sse(events)(req, res, body);
}
