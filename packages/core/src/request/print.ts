/**
 * The request as readable text, exactly what the model receives: for `agent.debug()`, test
 * failures, and the CLI. One printer; callers that color (a terminal) pass a {@link Styler}.
 */
import { textOf } from '../parts/message-parts.js';
import type { Message } from '../types/messages.js';
import type { AppendOnlyRequest, ModelRequest, SystemNote, ToolSpec } from '../types/request.js';

/** Hooks to decorate parts of the printout (e.g. ANSI colors). Each defaults to the identity. */
export interface Styler {
  /** Section headings (`── system ───`). */
  heading(text: string): string;
  /** Message labels (`[user]`, `[assistant]`, `[tool x #id]`). */
  label(text: string, role: Message['role'], isError: boolean): string;
  /** Tool calls (`→ name(input) #id`) and tool signatures. */
  call(text: string): string;
  /** Placeholders such as `(none)`. */
  dim(text: string): string;
}

/** Options of {@link printRequest}. */
export interface PrintOptions {
  /**
   * Cut the output after this many characters (a note says how much was left out). Default: the
   * `SKILLTREE_DEBUG_PRINT_LIMIT` environment variable, else 7000. `Infinity` prints everything.
   */
  maxLength?: number;
  /** Leave out the transcript window. Default false. */
  hideMessages?: boolean;
  /** Decorations; see {@link Styler}. */
  style?: Partial<Styler>;
  /** The whole transcript's length, to say how much of it the window shows. */
  transcriptLength?: number;
}

const plain: Styler = {
  heading: (text) => text,
  label: (text) => text,
  call: (text) => text,
  dim: (text) => text,
};

function defaultLimit(): number {
  const env = typeof process !== 'undefined' ? process.env?.SKILLTREE_DEBUG_PRINT_LIMIT : undefined;
  const value = env ? Number(env) : Number.NaN;
  return Number.isFinite(value) && value > 0 ? value : 7000;
}

type Schema = Record<string, unknown>;

/**
 * A JSON Schema as a short TypeScript-like type: `{ sku: string; qty?: number }`. Falls back to
 * JSON for shapes it does not know.
 */
export function printSchema(schema: unknown): string {
  if (!schema || typeof schema !== 'object') return 'unknown';
  const s = schema as Schema;
  if (Array.isArray(s.enum)) return s.enum.map((v) => JSON.stringify(v)).join(' | ');
  if ('const' in s) return JSON.stringify(s.const);
  const union = (s.anyOf ?? s.oneOf) as unknown[] | undefined;
  if (Array.isArray(union)) return union.map(printSchema).join(' | ');
  const type = s.type;
  if (Array.isArray(type)) return type.map((t) => printSchema({ ...s, type: t })).join(' | ');
  switch (type) {
    case 'string':
    case 'boolean':
    case 'null':
      return type;
    case 'number':
    case 'integer':
      return 'number';
    case 'array': {
      const item = printSchema(s.items);
      return item.includes(' ') && !item.startsWith('{') ? `(${item})[]` : `${item}[]`;
    }
    case 'object': {
      const props = (s.properties ?? {}) as Record<string, unknown>;
      const required = new Set(Array.isArray(s.required) ? (s.required as string[]) : []);
      const keys = Object.keys(props);
      if (keys.length === 0) return '{}';
      const fields = keys.map((key) => `${key}${required.has(key) ? '' : '?'}: ${printSchema(props[key])}`);
      return `{ ${fields.join('; ')} }`;
    }
    default:
      return JSON.stringify(schema);
  }
}

/** One tool as a signature line: `add_to_cart({ sku: string }) — Add an item`. */
export function printTool(tool: ToolSpec): string {
  const description = tool.description ? ` — ${tool.description}` : '';
  return `${tool.name}(${printSchema(tool.inputSchema)})${description}`;
}

function indent(text: string): string {
  return text
    .split('\n')
    .map((line) => (line ? `  ${line}` : line))
    .join('\n');
}

/** One transcript message as the model reads it: role, ids, tool calls and content. */
export function printMessage(message: Message, style: Partial<Styler> = {}): string {
  const s = { ...plain, ...style };
  switch (message.role) {
    case 'user':
      return `${s.label('[user]', 'user', false)}\n${indent(textOf(message))}`;
    case 'assistant': {
      const parts = [s.label('[assistant]', 'assistant', false)];
      for (const part of message.content) {
        if (part.type === 'reasoning') parts.push(indent(`(reasoning) ${part.text || '[hidden]'}`));
      }
      const text = textOf(message);
      if (text) parts.push(indent(text));
      for (const call of message.toolCalls ?? []) {
        parts.push(`  ${s.call(`→ ${call.name}(${JSON.stringify(call.input)}) #${call.id}`)}`);
      }
      return parts.join('\n');
    }
    case 'tool': {
      const label = `[tool ${message.name} #${message.toolCallId}${message.isError ? ' error' : ''}]`;
      return `${s.label(label, 'tool', message.isError === true)}\n${indent(textOf(message))}`;
    }
  }
}

function heading(title: string): string {
  return `── ${title} ${'─'.repeat(Math.max(3, 60 - title.length))}`;
}

/**
 * The request as the model receives it, as readable text: system prompt, `<current_context>`,
 * tools (as signatures) and the transcript window; for a model with `appendOnly`, the fixed system
 * prompt and tools and the items that only grow. Deterministic, so it snapshots well.
 *
 * @example
 * console.log(printRequest(session.request()));
 */
export function printRequest(request: ModelRequest, options: PrintOptions = {}): string {
  const s = { ...plain, ...options.style };
  if (request.appendOnly) return limited(printAppendOnly(request.appendOnly, options, s), options);
  const placed = request.contextPlacement === 'system' ? 'system' : 'end';
  const sections = [
    s.heading(heading('system')),
    request.system || s.dim('(empty)'),
    s.heading(heading(`context (placement: ${placed})`)),
    request.context || s.dim('(empty)'),
    s.heading(heading(`tools (${request.tools.length})`)),
    request.tools.length > 0 ? request.tools.map((tool) => s.call(printTool(tool))).join('\n') : s.dim('(none)'),
  ];
  if (!options.hideMessages) {
    const of = options.transcriptLength !== undefined ? ` of ${options.transcriptLength}` : '';
    sections.push(s.heading(heading(`messages (${request.messages.length}${of})`)));
    sections.push(
      request.messages.length > 0 ? request.messages.map((m) => printMessage(m, s)).join('\n') : s.dim('(none)'),
    );
  }
  return limited(sections.join('\n'), options);
}

/** A note the session appended to an append-only conversation: what changed, and the tools it added or removed. */
function printNote(note: SystemNote, s: Styler): string {
  const lines = [s.label('[system note]', 'user', false)];
  if (note.text) lines.push(indent(note.text));
  for (const tool of note.addedTools) lines.push(`  ${s.call(`+ tool ${printTool(tool)}`)}`);
  for (const name of note.removedTools) lines.push(`  ${s.call(`- tool ${name}`)}`);
  return lines.join('\n');
}

/**
 * An append-only request as the model receives it: the system prompt and tools its conversation's
 * first request fixed, then every item in order (messages, and the notes that say what changed).
 */
function printAppendOnly(request: AppendOnlyRequest, options: PrintOptions, s: Styler): string {
  const sections = [
    s.heading(heading('system (fixed for this conversation)')),
    request.system || s.dim('(empty)'),
    s.heading(heading(`tools (${request.tools.length}, fixed; notes add and remove)`)),
    request.tools.length > 0 ? request.tools.map((tool) => s.call(printTool(tool))).join('\n') : s.dim('(none)'),
  ];
  if (!options.hideMessages) {
    sections.push(s.heading(heading(`items (${request.items.length}, append-only)`)));
    sections.push(
      request.items.length > 0
        ? request.items.map((item) => (item.role === 'system' ? printNote(item, s) : printMessage(item, s))).join('\n')
        : s.dim('(none)'),
    );
  }
  return sections.join('\n');
}

function limited(out: string, options: PrintOptions): string {
  const limit = options.maxLength ?? defaultLimit();
  if (out.length <= limit) return out;
  return `${out.slice(0, limit)}\n… ${out.length - limit} more characters (raise SKILLTREE_DEBUG_PRINT_LIMIT or pass { maxLength } to see them)`;
}
