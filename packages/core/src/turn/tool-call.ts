/**
 * Running one `<Tool>` call: validate the input, run with a timeout and an abort signal, and turn
 * whatever happens into a tool result. Nothing here throws: every failure becomes an error result.
 * Every result is held to the session's size cap by one rule, {@link cutResult}.
 */

import { isToolResult, type ToolResult, toFileParts } from '../files/files.js';
import { FileRejectedError, type ResolvedFileLimits } from '../files/limits.js';
import type { ChatInfo, SessionHandle, SkillInfo } from '../host/runtime.js';
import type { ToolEntry } from '../host/serialize.js';
import { MAX_INPUT_DEPTH, nestsWithin } from '../parts/tool-input-depth.js';
import type { FilePart, ToolCall, ToolErrorKind } from '../types/messages.js';
import { whenAborted } from './abort-watch.js';
import { RunWaits } from './run-waits.js';

export interface ToolOutcome {
  content: string;
  isError: boolean;
  /** Why it is an error, as data. */
  kind?: ToolErrorKind;
  /** Files the tool returned (see `toolResult`), after its text. */
  files?: FilePart[];
  /** What `run` threw, for the trace. */
  error?: unknown;
  /** A subagent call whose run ended waiting: no result yet; these calls wait instead (see `run-wait.ts`). */
  waits?: RunWaits;
}

export interface RunOptions {
  session: SessionHandle;
  /** The chat the session serves, for `ctx.chat`. */
  chat: ChatInfo | null;
  /** The call's idempotency key, for `ctx.idempotencyKey` (see `idempotencyKey` in journal.ts). */
  idempotencyKey?: string;
  signal?: AbortSignal;
  /** Default timeout; a tool's own `timeout` prop wins. */
  timeout: number;
  /** The session's `maxToolResultChars`, for `ctx.maxResultChars`. */
  maxResultChars: number;
  /** The session's file limits, for files a tool returns. */
  fileLimits: ResolvedFileLimits;
  /** Bytes of the files the chat holds already (its whole transcript's): a tool's files count toward `maxChatBytes`. */
  chatFileBytes: number;
  skillInfo(name: string): SkillInfo;
}

interface Issue {
  path?: PropertyKey[];
  message?: string;
}

function describeIssues(error: unknown): string {
  const issues = (error as { issues?: Issue[] } | null)?.issues;
  if (!Array.isArray(issues) || issues.length === 0) return String((error as Error)?.message ?? error);
  return issues
    .map((issue) => {
      const path = issue.path && issue.path.length > 0 ? issue.path.map(String).join('.') : '(input)';
      return `${path}: ${String(issue.message ?? 'invalid').replace(/^Invalid input: /, '')}`;
    })
    .join('; ');
}

/** Why a value cannot be a tool result (functions, symbols, Maps, Sets, class instances without `toJSON`), or null. */
function unserialisable(value: unknown, path = 'the result', seen = new Set<object>()): string | null {
  if (typeof value === 'function') return `${path} is a function`;
  if (typeof value === 'symbol') return `${path} is a symbol`;
  if (typeof value === 'bigint') return `${path} is a bigint`;
  if (value === null || typeof value !== 'object') return null;
  if (seen.has(value)) return `${path} refers to itself`;
  if (typeof (value as { toJSON?: unknown }).toJSON === 'function') return null;
  if (value instanceof Map || value instanceof Set) {
    return `${path} is a ${value instanceof Map ? 'Map' : 'Set'} (convert it, e.g. Object.fromEntries(map) or [...set])`;
  }
  if (value instanceof Promise) return `${path} is a Promise that was not awaited`;
  seen.add(value);
  for (const [key, item] of Object.entries(value)) {
    const reason = unserialisable(item, `${path}.${key}`, seen);
    if (reason) return reason;
  }
  seen.delete(value);
  return null;
}

const count = new Intl.NumberFormat('en-US');

/**
 * The note a cut tool result ends with: `[…truncated: <what was cut, and how to read on>]`. Tools
 * that return long output in parts (the folder read tool) end their parts with the same note.
 */
export function truncationNote(detail: string): string {
  return `[…truncated: ${detail}]`;
}

/**
 * `text` when it has at most `maxChars` characters; else its start, cut at a line end when one is
 * near (never inside a character), then a {@link truncationNote} that says how much was cut.
 */
export function cutResult(text: string, maxChars: number): string {
  if (text.length <= maxChars) return text;
  let keep = maxChars;
  const newline = text.lastIndexOf('\n', keep);
  if (newline > 0 && newline >= keep - 1000) keep = newline;
  else if (/[\uD800-\uDBFF]/.test(text[keep - 1] ?? '')) keep--;
  const cut = text.length - keep;
  return `${text.slice(0, keep)}\n${truncationNote(
    `${count.format(cut)} of ${count.format(text.length)} characters were cut; a tool result carries at most ${count.format(maxChars)} (maxToolResultChars).`,
  )}`;
}

/** Turns a tool's return value into message text, or throws saying why it cannot. */
export function resultText(value: unknown): string {
  if (typeof value === 'string') return value;
  if (value === undefined || value === null) return 'OK';
  const reason = unserialisable(value);
  if (reason) throw new Error(`${reason}; return a string or JSON-serialisable data`);
  return JSON.stringify(value);
}

/**
 * The call's input as a value. Adapters pass arguments they could not parse as the raw string
 * (OpenAI sends JSON text); a string that is not JSON becomes the refusal text returned here.
 */
export function decodeInput(toolName: string, raw: unknown): { input: unknown } | string {
  if (typeof raw !== 'string') return { input: raw ?? {} };
  if (raw.trim() === '') return { input: {} };
  try {
    const input: unknown = JSON.parse(raw);
    if (!nestsWithin(input)) {
      return `Invalid input for tool "${toolName}": the arguments nest deeper than ${MAX_INPUT_DEPTH} levels. Send flatter JSON.`;
    }
    return { input };
  } catch {
    const shown = raw.length > 200 ? `${raw.slice(0, 200)}…` : raw;
    return `Invalid input for tool "${toolName}": the arguments are not valid JSON (${shown}). Send a JSON object.`;
  }
}

/** Validates `raw` against the tool's schema; a tool without `input` takes no arguments at all. */
export async function parseInput(tool: ToolEntry, raw: unknown): Promise<{ input: unknown } | string> {
  const decoded = decodeInput(tool.name, raw);
  if (typeof decoded === 'string') return decoded;
  const schema = tool.node.props.input;
  if (!schema) {
    const input = decoded.input;
    const isEmptyObject =
      input !== null && typeof input === 'object' && !Array.isArray(input) && Object.keys(input).length === 0;
    if (isEmptyObject) return { input: {} };
    return `Invalid input for tool "${tool.name}": it takes no arguments; call it with {}.`;
  }
  const parse = typeof schema.safeParseAsync === 'function' ? schema.safeParseAsync : schema.safeParse;
  try {
    const parsed = await parse.call(schema, decoded.input);
    if (!parsed.success) return `Invalid input for tool "${tool.name}": ${describeIssues(parsed.error)}`;
    return { input: parsed.data };
  } catch (error) {
    return `Invalid input for tool "${tool.name}": the schema threw (${(error as Error)?.message ?? error}).`;
  }
}

/**
 * Runs `tool` for `call`. `tool` is a string when the tool is unknown: the string is the refusal.
 */
export async function runTool(
  tool: ToolEntry | ToolOutcome,
  call: ToolCall,
  options: RunOptions,
): Promise<ToolOutcome> {
  if (!('node' in tool)) return tool;
  const props = tool.node.props;
  const parsed = await parseInput(tool, call.input);
  if (typeof parsed === 'string') return { content: parsed, isError: true, kind: 'invalid-input' };
  if (typeof props.run !== 'function') {
    return {
      content: `Tool "${tool.name}" runs in the client: its result comes from there (addToolResult), not from the session.`,
      isError: true,
      kind: 'not-run',
    };
  }

  // The signal the tool sees is made when the tool first reads `ctx.signal` (most tools never do):
  // an AbortController per call costs more than the rest of the call's bookkeeping. It follows the
  // turn's signal and the timeout all the same, aborted with the same reason if made afterwards.
  let controller: AbortController | undefined;
  let aborted: { reason: unknown } | undefined;
  /** Rejects the race below; set once the tool has been called (an abort before that does not reject it). */
  let stop: ((reason: unknown) => void) | undefined;
  const abort = (reason: unknown) => {
    if (aborted) return;
    aborted = { reason };
    controller?.abort(reason);
    stop?.(reason ?? new Error('aborted'));
  };
  const outer = options.signal;
  let unwatch: (() => void) | undefined;
  if (outer?.aborted) abort(outer.reason);
  else if (outer) unwatch = whenAborted(outer, () => abort(outer.reason));
  const timeout = typeof props.timeout === 'number' && props.timeout > 0 ? props.timeout : options.timeout;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let timedOut = false;
  try {
    const ctx = {
      session: options.session,
      chat: options.chat,
      skill: tool.skill ? options.skillInfo(tool.skill) : null,
      get signal(): AbortSignal {
        if (!controller) {
          controller = new AbortController();
          if (aborted) controller.abort(aborted.reason);
        }
        return controller.signal;
      },
      toolCallId: call.id,
      idempotencyKey: options.idempotencyKey ?? call.id,
      maxResultChars: options.maxResultChars,
    };
    // Called synchronously so that setters it calls before its first await commit with this call.
    const returned: unknown = props.run(parsed.input, ctx);
    const value = isThenable(returned) ? await raceStop(returned, tool.name) : await returned;
    try {
      if (value instanceof RunWaits) return { content: '', isError: false, waits: value };
      if (isToolResult(value)) return withFiles(tool.name, value, options.fileLimits, options.chatFileBytes);
      return { content: resultText(value), isError: false };
    } catch (error) {
      return {
        content: `Tool "${tool.name}" returned a value that is not a valid result: ${(error as Error).message}.`,
        isError: true,
        kind: 'threw',
      };
    }
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    const kind: ToolErrorKind = timedOut ? 'timeout' : outer?.aborted ? 'interrupted' : 'threw';
    return { content: `Tool "${tool.name}" failed: ${message}`, isError: true, kind, error };
  } finally {
    clearTimeout(timer);
    unwatch?.();
  }

  /**
   * The tool's promise, raced against its timeout and the abort. A tool that returned a plain value
   * skips this: a settled value wins any race against what can only fire later, so it needs no timer.
   */
  function raceStop(pending: PromiseLike<unknown>, name: string): Promise<unknown> {
    const stopped = new Promise<never>((_, reject) => {
      timer = setTimeout(() => {
        const error = new Error(`Tool "${name}" timed out after ${timeout} ms.`);
        timedOut = true;
        abort(error);
        reject(error);
      }, timeout);
      // An abort that came before this point leaves the race to the tool and the timeout, as a
      // listener added to a signal that aborted already is never called.
      if (!aborted) stop = reject;
    });
    stopped.catch(() => {});
    return Promise.race([pending, stopped]);
  }
}

function isThenable(value: unknown): value is PromiseLike<unknown> {
  return (
    value !== null &&
    (typeof value === 'object' || typeof value === 'function') &&
    typeof (value as { then?: unknown }).then === 'function'
  );
}

/** A `toolResult`'s text and checked files; a refused file makes it an error result that says why. */
function withFiles(name: string, result: ToolResult, limits: ResolvedFileLimits, chatBytes: number): ToolOutcome {
  const texts: string[] = [];
  const inputs = [];
  for (const item of result.content) {
    if (typeof item === 'string') texts.push(item);
    else inputs.push(item);
  }
  try {
    return { content: texts.join('\n'), isError: false, files: toFileParts(inputs, limits, chatBytes) };
  } catch (error) {
    if (!(error instanceof FileRejectedError)) throw error;
    return {
      content: `Tool "${name}" returned a file that was refused: ${error.message}`,
      isError: true,
      kind: 'threw',
    };
  }
}
