/**
 * The Responses API request body for a neutral request (`openai({ model })`, the default): stateless
 * (`store: false`, the conversation is sent whole every time), the system prompt as `instructions`,
 * the transcript as input items with each reasoning item replayed from its encrypted content, and,
 * for an append-only request, the notes the session appended as `developer` messages and
 * `additional_tools` items.
 */
import {
  type AppendOnlyItem,
  type FilePart,
  type Message,
  type ModelAccepts,
  type ModelRequest,
  placeContext,
  type ReasoningPart,
  type ReasoningSource,
  type RenderedPart,
  renderParts,
  replaysTo,
  type SystemNote,
  type ToolResultPart,
  type ToolSpec,
  type UserPart,
} from '@skilltree/core/provider';
import type OpenAI from 'openai';
import { OpenAIFileBudget, planFile } from './openai-files.js';
import { canReason } from './openai-models.js';
import { dataOf } from './reasoning-source.js';
import { toolInputJson } from './tool-input.js';
import { unmappedPart } from './unmapped-part.js';

type Body = OpenAI.Responses.ResponseCreateParamsNonStreaming;
type InputItem = OpenAI.Responses.ResponseInputItem;
type InputContent = OpenAI.Responses.ResponseInputContent;
type OutputContent = OpenAI.Responses.ResponseFunctionCallOutputItem;

/** The provider name reasoning parts carry when this adapter produced them. */
export const PROVIDER = 'openai';

/** What the reasoning of a request asks for: `reasoning.effort` and `reasoning.summary`. */
export interface OpenAIResponsesBodyOptions {
  /** The model id. */
  model: string;
  /** Sent as `max_output_tokens`. */
  maxTokens?: number;
  temperature?: number;
  /** Sent as `reasoning.effort`. Default: not sent (the model's default). */
  reasoningEffort?: string;
  /** Sent as `reasoning.summary`. Default: not sent (no summaries). */
  reasoningSummary?: 'auto' | 'concise' | 'detailed';
  /** Whether the model reasons (asks for its reasoning encrypted). Default: `canReason(model)`. */
  reasoning?: boolean;
  /** Fields merged into the body last. */
  extraBody?: Record<string, unknown>;
  /**
   * Who the adapter is (provider, endpoint, model): reasoning is replayed only where it came from.
   * Default: `openai` at OpenAI's own endpoint, with `model`.
   */
  source?: ReasoningSource;
  /** The kinds of file the model reads (`Model.accepts`); a file of another kind is described in text. */
  accepts?: ModelAccepts;
}

/**
 * The files of one request body: what the model reads, and OpenAI's limits counted as files are
 * added (see `openai-files.ts`). A new one per body.
 */
export interface ResponsesFiles {
  accepts?: ModelAccepts;
  budget: OpenAIFileBudget;
}

const filesFor = (accepts?: ModelAccepts): ResponsesFiles => ({ accepts, budget: new OpenAIFileBudget('Responses') });

/** A tool as a Responses function tool. `strict: false`: skilltree's schemas are not all strict-mode schemas. */
export function functionTool(tool: ToolSpec): OpenAI.Responses.FunctionTool {
  return {
    type: 'function',
    name: tool.name,
    description: tool.description,
    parameters: tool.inputSchema,
    strict: false,
  };
}

const EXTENSIONS: Record<string, string> = {
  'application/pdf': 'pdf',
  'text/plain': 'txt',
  'text/markdown': 'md',
  'text/csv': 'csv',
  'application/json': 'json',
};

/** A file's name for `input_file` (the API wants one with bytes): its own, else `file.<ext>`. */
function filenameOf(file: FilePart): string {
  if (file.filename) return file.filename;
  const ext = EXTENSIONS[file.mediaType];
  return ext ? `file.${ext}` : 'file';
}

/**
 * A file as Responses content: an image as `input_image` (its bytes as a `data:` URL, or its URL),
 * any other file as `input_file` (its bytes with its name, or its URL); a file the API or the model
 * does not take (audio, an image type OpenAI does not read, an image for a model without vision) as
 * the text describing it. OpenAI's limits are checked as each file is added.
 */
function fileContent(
  file: FilePart,
  files: ResponsesFiles,
): OpenAI.Responses.ResponseInputImage | OpenAI.Responses.ResponseInputFile | OpenAI.Responses.ResponseInputText {
  const plan = planFile(file, files.accepts, files.budget);
  if ('describe' in plan) return { type: 'input_text', text: plan.describe };
  if (plan.send === 'image') {
    const url = file.data !== undefined ? `data:${file.mediaType};base64,${file.data}` : (file.url ?? '');
    return { type: 'input_image', detail: 'auto', image_url: url };
  }
  if (file.data !== undefined) {
    return { type: 'input_file', filename: filenameOf(file), file_data: `data:${file.mediaType};base64,${file.data}` };
  }
  return { type: 'input_file', file_url: file.url ?? '' };
}

const onlyText = (parts: RenderedPart[]): parts is { type: 'text'; text: string }[] =>
  parts.every((p) => p.type === 'text');

/** A user message's content: a string when it is text only (the same text as before parts), else text and files. */
function userContent(parts: readonly UserPart[], files: ResponsesFiles): string | InputContent[] {
  const rendered = renderParts(parts);
  if (onlyText(rendered)) return rendered.map((p) => p.text).join('');
  return rendered.map(
    (p): InputContent => (p.type === 'text' ? { type: 'input_text', text: p.text } : fileContent(p, files)),
  );
}

/**
 * A tool result's `output`: its text as a string (an error result included: its text says what went
 * wrong, as the model has always read it), or, with files, text, `input_image` and `input_file` items.
 */
function toolOutput(parts: readonly ToolResultPart[], files: ResponsesFiles): string | OutputContent[] {
  const rendered = renderParts(parts);
  if (onlyText(rendered)) return rendered.map((p) => p.text).join('');
  return rendered.map(
    (p): OutputContent => (p.type === 'text' ? { type: 'input_text', text: p.text } : fileContent(p, files)),
  );
}

/**
 * Whether `part` is replayed to `source`: where core's `replaysTo` says (the same provider, endpoint
 * and model), and only with the encrypted content this adapter wrote (with `store: false` the API
 * keeps nothing, so an item id alone is refused).
 */
export function replays(part: ReasoningPart, source: ReasoningSource): boolean {
  return (
    replaysTo(part, source) && !!dataOf(part.providerData, 'encryptedContent') && !!dataOf(part.providerData, 'itemId')
  );
}

/** A reasoning part as the item it came from, byte-exact: its id, its encrypted content, its summary. */
export function reasoningItem(part: ReasoningPart): OpenAI.Responses.ResponseReasoningItem {
  return {
    type: 'reasoning',
    id: dataOf(part.providerData, 'itemId') as string,
    encrypted_content: dataOf(part.providerData, 'encryptedContent'),
    summary: part.text ? [{ type: 'summary_text', text: part.text }] : [],
  };
}

/**
 * A transcript message as input items. An assistant message: its reasoning (when {@link replays}
 * says so) and text in order, each run of text one `assistant` message, then a `function_call` per
 * tool call. A tool result: a `function_call_output`. A user message: a `user` message. `files`
 * counts the request's files against OpenAI's limits (a fresh count for one message when left out).
 */
export function messageItems(
  message: Message,
  source: ReasoningSource,
  files: ResponsesFiles = filesFor(),
): InputItem[] {
  if (message.role === 'user') return [{ role: 'user', content: userContent(message.content, files) }];
  if (message.role === 'tool') {
    return [{ type: 'function_call_output', call_id: message.toolCallId, output: toolOutput(message.content, files) }];
  }
  const items: InputItem[] = [];
  let text = '';
  const flush = () => {
    if (text) items.push({ role: 'assistant', content: text });
    text = '';
  };
  for (const part of message.content) {
    if (part.type === 'text') text += part.text;
    else if (part.type === 'reasoning') {
      if (!replays(part, source)) continue;
      flush();
      items.push(reasoningItem(part));
    } else unmappedPart(part, 'openai()');
  }
  flush();
  for (const call of message.toolCalls ?? []) {
    items.push({ type: 'function_call', call_id: call.id, name: call.name, arguments: toolInputJson(call.input) });
  }
  return items;
}

/**
 * A note the session appended (append-only requests) as input items: its text as a `developer`
 * message, its added tools as an `additional_tools` item. The Responses API has no way to withdraw
 * a tool: a removed tool stays declared, and the body's `tool_choice` leaves it out of the tools the
 * model may call (see {@link allowedToolChoice}); core still refuses a call of it with the seed's
 * `Unknown tool … (skill "x" is not loaded; read it first)` should a server ignore `tool_choice`.
 * A redefined tool is declared again; the newest definition is the one in force.
 */
export function noteItems(note: SystemNote): InputItem[] {
  const items: InputItem[] = [];
  if (note.text) items.push({ role: 'developer', content: note.text });
  if (note.addedTools.length > 0) {
    items.push({ type: 'additional_tools', role: 'developer', tools: note.addedTools.map(functionTool) });
  }
  return items;
}

/**
 * What a Responses body declares against what the model may call now. An append-only conversation
 * keeps every tool it ever declared (its first `tools`, then each `additional_tools` item: there is
 * no removal item), so a tool an unload withdrew stays declared, and a model that calls it reads
 * `Unknown tool`. When some declared tool is not offered now, `tool_choice` names the offered ones as
 * `allowed_tools` (mode `auto`): the model calls only those, and the declared list (the prefix, and
 * the cache on it) is kept. Nothing is sent when every declared tool is offered (a classic request
 * declares exactly the offered tools), and `'none'` when none is.
 */
export function allowedToolChoice(
  declared: readonly ToolSpec[],
  offered: readonly ToolSpec[],
): OpenAI.Responses.ToolChoiceAllowed | 'none' | undefined {
  const declaredNames = new Set(declared.map((t) => t.name));
  // Only declared names may be listed (the API refuses others); an offered tool is always declared.
  const allowed = [...new Set(offered.map((t) => t.name))].filter((name) => declaredNames.has(name));
  if (allowed.length === declaredNames.size) return undefined;
  if (allowed.length === 0) return 'none';
  return { type: 'allowed_tools', mode: 'auto', tools: allowed.map((name) => ({ type: 'function', name })) };
}

/** Every tool an append-only conversation has declared: its first tools, then each note's added ones. */
function declaredTools(tools: readonly ToolSpec[], items: readonly AppendOnlyItem[]): ToolSpec[] {
  const all = [...tools];
  for (const item of items) if (item.role === 'system') all.push(...item.addedTools);
  return all;
}

function itemsOf(items: readonly AppendOnlyItem[], source: ReasoningSource, files: ResponsesFiles): InputItem[] {
  return items.flatMap((item) => (item.role === 'system' ? noteItems(item) : messageItems(item, source, files)));
}

/**
 * The Responses body (without `stream`) for a request, exactly as the adapter sends it:
 *
 * - `store: false`, and, for a model that reasons, `include: ['reasoning.encrypted_content']`: nothing
 *   is kept on OpenAI's side, and every reasoning item comes back encrypted so it can be replayed;
 * - classic requests: `instructions` is the system prompt (with the context when it is placed
 *   there), `input` the transcript with the context placed by `placeContext`, `tools` the request's;
 * - append-only requests (`req.appendOnly`): `instructions` and `tools` are the conversation's first
 *   (they never change), `input` its items, each note a `developer` message and, when it adds tools,
 *   an `additional_tools` item (see {@link noteItems}); once a tool is declared that is no longer
 *   offered, `tool_choice` allows only the offered ones (see {@link allowedToolChoice}).
 *
 * Reasoning parts are replayed only to the model that produced them (see {@link replays}). Files
 * are checked against OpenAI's limits as they are added: one over a limit throws a `ModelError`
 * naming it, before anything is sent; one the API or the model does not take is described in text.
 */
export function openaiResponsesBody(req: ModelRequest, options: OpenAIResponsesBodyOptions): Body {
  const model = options.model;
  const source = options.source ?? { provider: PROVIDER, model };
  const ao = req.appendOnly;
  let instructions: string;
  let input: InputItem[];
  let tools: readonly ToolSpec[];
  let toolChoice: Body['tool_choice'];
  const files = filesFor(options.accepts);
  if (ao) {
    instructions = ao.system;
    input = itemsOf(ao.items, source, files);
    tools = ao.tools;
    toolChoice = allowedToolChoice(declaredTools(ao.tools, ao.items), req.tools);
  } else {
    const placed = placeContext(req);
    instructions = placed.system;
    input = itemsOf(placed.messages, source, files);
    tools = req.tools;
  }
  // In the order the model reads them: instructions, tools, then the conversation.
  const body: Body = { model };
  if (instructions) body.instructions = instructions;
  if (tools.length > 0) body.tools = tools.map(functionTool);
  if (toolChoice !== undefined) body.tool_choice = toolChoice;
  body.input = input;
  body.store = false;
  const reasons = options.reasoning ?? canReason(model);
  if (reasons || (options.reasoningEffort !== undefined && options.reasoningEffort !== 'none')) {
    body.include = ['reasoning.encrypted_content'];
  }
  const reasoning: OpenAI.Reasoning = {};
  if (options.reasoningEffort !== undefined) reasoning.effort = options.reasoningEffort as OpenAI.ReasoningEffort;
  if (options.reasoningSummary !== undefined) reasoning.summary = options.reasoningSummary;
  if (Object.keys(reasoning).length > 0) body.reasoning = reasoning;
  if (options.maxTokens !== undefined) body.max_output_tokens = options.maxTokens;
  if (options.temperature !== undefined) body.temperature = options.temperature;
  return { ...body, ...(options.extraBody ?? {}) } as Body;
}
