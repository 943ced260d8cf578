/**
 * Human-readable printing of a request, as the model receives it: for `agent.debug()`, for the
 * errors queries throw, and for matcher failure messages.
 */
import type { Message, ModelRequest, ToolSpec } from '@skilltree/core';

/** Options of {@link prettyRequest}. */
export interface PrettyOptions {
  /**
   * Cut the output after this many characters (a note says how much was left out). Default: the
   * `SKILLTREE_DEBUG_PRINT_LIMIT` environment variable, else 7000. `Infinity` prints everything.
   */
  maxLength?: number;
  /** Leave out the transcript window (errors of queries that never read it). Default false. */
  hideMessages?: boolean;
}

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
export function prettySchema(schema: unknown): string {
  if (!schema || typeof schema !== 'object') return 'unknown';
  const s = schema as Schema;
  if (Array.isArray(s.enum)) return s.enum.map((v) => JSON.stringify(v)).join(' | ');
  if ('const' in s) return JSON.stringify(s.const);
  const union = (s.anyOf ?? s.oneOf) as unknown[] | undefined;
  if (Array.isArray(union)) return union.map(prettySchema).join(' | ');
  const type = s.type;
  if (Array.isArray(type)) return type.map((t) => prettySchema({ ...s, type: t })).join(' | ');
  switch (type) {
    case 'string':
    case 'boolean':
    case 'null':
      return type;
    case 'number':
    case 'integer':
      return 'number';
    case 'array': {
      const item = prettySchema(s.items);
      return item.includes(' ') && !item.startsWith('{') ? `(${item})[]` : `${item}[]`;
    }
    case 'object': {
      const props = (s.properties ?? {}) as Record<string, unknown>;
      const required = new Set(Array.isArray(s.required) ? (s.required as string[]) : []);
      const keys = Object.keys(props);
      if (keys.length === 0) return '{}';
      const fields = keys.map((key) => `${key}${required.has(key) ? '' : '?'}: ${prettySchema(props[key])}`);
      return `{ ${fields.join('; ')} }`;
    }
    default:
      return JSON.stringify(schema);
  }
}

/** One tool as a signature line: `add_to_cart({ sku: string }) — Add an item`. */
export function prettyTool(tool: ToolSpec): string {
  const description = tool.description ? ` — ${tool.description}` : '';
  return `${tool.name}(${prettySchema(tool.inputSchema)})${description}`;
}

function indent(text: string): string {
  return text
    .split('\n')
    .map((line) => (line ? `  ${line}` : line))
    .join('\n');
}

/** One transcript message as the model reads it: role, ids, tool calls and content. */
export function prettyMessage(message: Message): string {
  switch (message.role) {
    case 'user':
      return `[user]\n${indent(message.content)}`;
    case 'assistant': {
      const parts = ['[assistant]'];
      if (message.content) parts.push(indent(message.content));
      for (const call of message.toolCalls ?? []) {
        parts.push(`  → ${call.name}(${JSON.stringify(call.input)}) #${call.id}`);
      }
      return parts.join('\n');
    }
    case 'tool':
      return `[tool ${message.name} #${message.toolCallId}${message.isError ? ' error' : ''}]\n${indent(message.content)}`;
  }
}

function heading(title: string): string {
  return `── ${title} ${'─'.repeat(Math.max(3, 60 - title.length))}`;
}

/**
 * The request as the model receives it, as readable text: system prompt, `<current_context>`,
 * tools (as signatures) and the transcript window. Deterministic, so it snapshots well.
 *
 * @example
 * expect(prettyRequest(agent.request())).toMatchSnapshot();
 */
export function prettyRequest(request: ModelRequest, options: PrettyOptions = {}): string {
  const sections = [
    heading('system'),
    request.system || '(empty)',
    heading(`context (placement: ${request.contextPlacement})`),
    request.context || '(empty)',
    heading(`tools (${request.tools.length})`),
    request.tools.length > 0 ? request.tools.map(prettyTool).join('\n') : '(none)',
  ];
  if (!options.hideMessages) {
    sections.push(heading(`messages (${request.messages.length})`));
    sections.push(request.messages.length > 0 ? request.messages.map(prettyMessage).join('\n') : '(none)');
  }
  const out = sections.join('\n');
  const limit = options.maxLength ?? defaultLimit();
  if (out.length <= limit) return out;
  return `${out.slice(0, limit)}\n… ${out.length - limit} more characters (raise SKILLTREE_DEBUG_PRINT_LIMIT or pass { maxLength } to see them)`;
}
