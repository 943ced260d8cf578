/**
 * Text formatting: colors (only on a terminal, honouring NO_COLOR and FORCE_COLOR), the request as
 * the model receives it and the transcript (core's printer with an ANSI styler, so the CLI and the
 * testing package print the same text), the skill catalog.
 */
import type { Message, ModelRequest, Session } from '@skilltree/core';
import {
  type FilePart,
  fileBytes,
  formatBytes,
  printMessage,
  printRequest,
  type Styler,
} from '@skilltree/core/provider';
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

/** `1 message`, `2 messages`: a count with its noun, singular for one. */
export function count(n: number, noun: string): string {
  return `${n} ${noun}${n === 1 ? '' : 's'}`;
}

/** Collapses whitespace to single spaces and cuts to `max` characters with an ellipsis. */
export function compact(text: string, max = 100): string {
  const one = text.replace(/\s+/g, ' ').trim();
  return one.length > max ? `${one.slice(0, max - 1)}…` : one;
}

/** JSON on one line, cut to `max` characters. */

/** A file part on one line: `photo.png (image/png, 12 KB)`, or its URL for a file by URL. */
export function describeFile(part: FilePart): string {
  const name = part.filename ?? part.url ?? 'unnamed';
  return part.data
    ? `${name} (${part.mediaType}, ${formatBytes(fileBytes(part))})`
    : `${name} (${part.mediaType}, by URL)`;
}

export function compactJson(value: unknown, max = 80): string {
  let json: string;
  try {
    json = JSON.stringify(value) ?? String(value);
  } catch {
    json = String(value);
  }
  return compact(json, max);
}

/**
 * Core's {@link Styler} in ANSI colors: headings bold cyan, `[user]` green, `[assistant]` magenta,
 * `[tool …]` yellow (red for error results), tool calls yellow, placeholders dim.
 */
export function ansiStyler(style: Style): Styler {
  return {
    heading: (text) => style.bold(style.cyan(text)),
    label: (text, role, isError) => {
      if (role === 'user') return style.bold(style.green(text));
      if (role === 'assistant') return style.bold(style.magenta(text));
      return style.bold(isError ? style.red(text) : style.yellow(text));
    },
    call: (text) => style.yellow(text),
    dim: (text) => style.dim(text),
  };
}

/** One transcript message, multi-line: core's printer, in color. */
export function formatMessage(message: Message, style: Style): string {
  return printMessage(message, ansiStyler(style));
}

/**
 * The request exactly as the model receives it (system, context, tools, messages): core's
 * printer, in color and never cut (a terminal scrolls).
 */
export function formatRequest(request: ModelRequest, style: Style, transcriptLength?: number): string {
  return printRequest(request, { style: ansiStyler(style), maxLength: Number.POSITIVE_INFINITY, transcriptLength });
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
