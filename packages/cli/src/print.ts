/**
 * Text formatting: colors (only on a terminal, honouring NO_COLOR and FORCE_COLOR), the request as
 * the model receives it, the transcript, the skill catalog.
 */
import type { Message, ModelRequest, Session } from '@skilltree/core';
import type { Output } from './io.js';

/** ANSI styling functions; each is the identity when colors are off. */
export interface Style {
  enabled: boolean;
  dim(text: string): string;
  bold(text: string): string;
  red(text: string): string;
  green(text: string): string;
  yellow(text: string): string;
  cyan(text: string): string;
  magenta(text: string): string;
}

/**
 * Whether to color `output`: `NO_COLOR` (any non-empty value) turns colors off, `FORCE_COLOR`
 * (anything but `0`/`false`) turns them on, otherwise colors are on for terminals only.
 */
export function colorEnabled(output: Output, env: Record<string, string | undefined>): boolean {
  if (env.NO_COLOR) return false;
  const force = env.FORCE_COLOR;
  if (force !== undefined && force !== '') return force !== '0' && force !== 'false';
  return output.isTTY === true && env.TERM !== 'dumb';
}

/** A {@link Style} for `output`. */
export function createStyle(output: Output, env: Record<string, string | undefined>): Style {
  const enabled = colorEnabled(output, env);
  const wrap = (open: number, close: number) => (text: string) =>
    enabled ? `\u001b[${open}m${text}\u001b[${close}m` : text;
  return {
    enabled,
    dim: wrap(2, 22),
    bold: wrap(1, 22),
    red: wrap(31, 39),
    green: wrap(32, 39),
    yellow: wrap(33, 39),
    cyan: wrap(36, 39),
    magenta: wrap(35, 39),
  };
}

/** Collapses whitespace to single spaces and cuts to `max` characters with an ellipsis. */
export function compact(text: string, max = 100): string {
  const one = text.replace(/\s+/g, ' ').trim();
  return one.length > max ? `${one.slice(0, max - 1)}…` : one;
}

/** JSON on one line, cut to `max` characters. */
export function compactJson(value: unknown, max = 80): string {
  let json: string;
  try {
    json = JSON.stringify(value) ?? String(value);
  } catch {
    json = String(value);
  }
  return compact(json, max);
}

/** Splits a tool result into its own text and the `contextChanged` lines the runtime appended. */
export function splitContextChanges(content: string): { text: string; changes: string[] } {
  const lines = content.split('\n');
  const changes = lines.filter((line) => line.startsWith('contextChanged'));
  const text = lines.filter((line) => !line.startsWith('contextChanged')).join('\n');
  return { text, changes };
}

function heading(title: string, style: Style): string {
  return style.bold(style.cyan(`── ${title} ${'─'.repeat(Math.max(3, 60 - title.length))}`));
}

function indent(text: string, prefix = '  '): string {
  return text
    .split('\n')
    .map((line) => (line === '' ? '' : `${prefix}${line}`))
    .join('\n');
}

/** One transcript message, multi-line. */
export function formatMessage(message: Message, style: Style): string {
  if (message.role === 'user') return `${style.bold(style.green('user'))}\n${indent(message.content)}`;
  if (message.role === 'assistant') {
    const parts = [style.bold(style.magenta('assistant'))];
    if (message.content) parts.push(indent(message.content));
    for (const call of message.toolCalls ?? []) {
      parts.push(indent(style.yellow(`→ ${call.name}(${JSON.stringify(call.input)})  [${call.id}]`)));
    }
    return parts.join('\n');
  }
  const label = `tool ${message.name} [${message.toolCallId}]${message.isError ? ' error' : ''}`;
  return `${style.bold(message.isError ? style.red(label) : style.yellow(label))}\n${indent(message.content)}`;
}

/** The request exactly as the model receives it: system, context, tools, messages. */
export function formatRequest(request: ModelRequest, style: Style, transcriptLength?: number): string {
  const out: string[] = [];
  out.push(heading('system', style), request.system || style.dim('(empty)'));
  out.push(
    heading(
      `context (placed: ${request.contextPlacement === 'system' ? 'in the system prompt' : 'after the last user turn'})`,
      style,
    ),
    request.context || style.dim('(empty)'),
  );
  out.push(heading(`tools (${request.tools.length})`, style));
  for (const tool of request.tools) {
    out.push(`${style.bold(tool.name)} — ${tool.description}`);
    out.push(style.dim(indent(JSON.stringify(tool.inputSchema))));
  }
  if (request.tools.length === 0) out.push(style.dim('(none)'));
  const of = transcriptLength !== undefined ? ` of ${transcriptLength} in the transcript` : '';
  out.push(heading(`messages (${request.messages.length}${of})`, style));
  for (const message of request.messages) out.push(formatMessage(message, style));
  if (request.messages.length === 0) out.push(style.dim('(none)'));
  return out.join('\n');
}

/** The whole transcript, numbered. */
export function formatTranscript(messages: readonly Message[], style: Style): string {
  if (messages.length === 0) return style.dim('(the transcript is empty)');
  return messages.map((message, i) => `${style.dim(`#${i + 1}`)} ${formatMessage(message, style)}`).join('\n');
}

/** The skill catalog with each skill's state: active, loaded, or not loaded. */
export function formatSkills(skills: Session['skills'], style: Style): string {
  if (skills.length === 0) return style.dim('(this agent has no skills)');
  const width = Math.max(...skills.map((s) => s.name.length));
  return skills
    .map((s) => {
      const mark = s.state === 'active' ? style.green('●') : s.state === 'loaded' ? style.cyan('◐') : style.dim('○');
      const state = s.state === 'unloaded' ? style.dim('not loaded') : s.state;
      const mounts = s.mounts > 0 ? style.dim(` (mounted ${s.mounts}×)`) : '';
      return `${mark} ${s.name.padEnd(width)}  ${state}${mounts}  ${style.dim(`— ${s.description}`)}`;
    })
    .join('\n');
}
