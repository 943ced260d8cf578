/**
 * `replayModel`: answers from a recording, offline and deterministic, and fails, saying where,
 * when a request differs from the recorded one.
 */
import type {
  AssistantPart,
  Model,
  ModelCallOptions,
  ModelRequest,
  ModelResponse,
  ModelStreamPart,
  ToolCall,
  Usage,
} from '@skilltree/core/provider';
import { differences, sideBySide } from './diff.js';
import { parseRecording, type RecordedExchange, type Recording, readRecording, recordedRequest } from './file.js';
import { type CleanOptions, cleaner } from './secrets.js';

/** A request that differs from the recorded one. */
export class RecordingMismatchError extends Error {
  override name = 'RecordingMismatchError';
  constructor(
    message: string,
    /** The request's number, from 1. */
    readonly request: number,
    /** Where the first difference is, e.g. `messages[5].content[0].text`. */
    readonly path: string,
    /** Every differing path (up to 20). */
    readonly paths: string[],
  ) {
    super(message);
  }
}

/** A request past the end of the recording. */
export class RecordingEndError extends Error {
  override name = 'RecordingEndError';
}

/** Options of {@link replayModel}. Pass the same `redact` and `env` the recording was made with. */
export interface ReplayOptions extends CleanOptions {
  /** Paths left out of the comparison, with what is under them, e.g. `['context']` or `['messages[0].content']`. */
  ignore?: readonly string[];
  /** Names the recording in errors (default: its file). */
  source?: string;
}

/** A model that replays a recording. */
export interface ReplayModel extends Model {
  /** Recorded calls not replayed yet. */
  readonly remaining: number;
  /** The recording. */
  readonly recording: Recording;
}

const ignored = (path: string, prefixes: readonly string[]) =>
  prefixes.some((p) => path === p || path.startsWith(`${p}.`) || path.startsWith(`${p}[`));

function abortIfNeeded(signal: AbortSignal | undefined): void {
  if (!signal?.aborted) return;
  const error = new Error('The model call was aborted.');
  error.name = 'AbortError';
  throw error;
}

function replayedError(e: NonNullable<RecordedExchange['error']>): Error {
  const error = new Error(e.message);
  error.name = e.name;
  return error;
}

/** A tool error recorded before results had kinds: its kind is unknown, so any kind matches it. */
const KIND = /(?:^|\.)(?:messages|items)\[\d+\]\.errorKind$/;
const unknownKind = (d: { path: string; recorded: unknown }) => d.recorded === undefined && KIND.test(d.path);

/** A response put together from streamed parts: its text, and its reasoning and text parts in order. */
function assemble(parts: readonly ModelStreamPart[]): ModelResponse {
  let text = '';
  const content: AssistantPart[] = [];
  const toolCalls: ToolCall[] = [];
  let usage: Usage | undefined;
  let model: string | undefined;
  for (const part of parts) {
    if (part.type === 'text-delta') {
      text += part.text;
      const last = content.at(-1);
      if (last?.type === 'text') last.text += part.text;
      else content.push({ type: 'text', text: part.text });
    } else if (part.type === 'reasoning') content.push(part.reasoning);
    else if (part.type === 'tool-call') toolCalls.push({ id: part.id, name: part.name, input: part.input });
    else if (part.type === 'step-finish' && part.usage) usage = part.usage;
    else if (part.type === 'finish') {
      if (part.usage) usage = part.usage;
      if (part.model) model = part.model;
    }
  }
  const reasoned = content.some((part) => part.type === 'reasoning');
  return {
    text,
    toolCalls,
    ...(reasoned ? { content } : {}),
    ...(usage ? { usage } : {}),
    ...(model ? { model } : {}),
  };
}

/** Stream parts that say what a response says: its reasoning and text in order, then its calls. */
function partsOf(response: ModelResponse): ModelStreamPart[] {
  const parts: ModelStreamPart[] = [];
  if (Array.isArray(response.content)) {
    for (const part of response.content) {
      if (part.type === 'reasoning') {
        if (part.text) parts.push({ type: 'reasoning-delta', text: part.text });
        parts.push({ type: 'reasoning', reasoning: part });
      } else if (part.text) parts.push({ type: 'text-delta', text: part.text });
    }
  } else {
    const text = (response as { text?: string }).text;
    if (text) parts.push({ type: 'text-delta', text });
  }
  for (const call of response.toolCalls ?? [])
    parts.push({ type: 'tool-call', id: call.id, name: call.name, input: call.input });
  parts.push({
    type: 'finish',
    ...(response.usage ? { usage: response.usage } : {}),
    ...(response.model ? { model: response.model } : {}),
  });
  return parts;
}

const copy = <T>(value: T): T => JSON.parse(JSON.stringify(value)) as T;

/**
 * A model that answers the n-th request with the n-th recorded answer. Each request is cleaned as
 * the recording was (`redact`, the secret scan) and compared with the recorded one; when they
 * differ, the call throws {@link RecordingMismatchError}: "request 3 differs from the recording at
 * messages[5].content[0].text", with both sides. A recording made before messages had parts
 * (version 1) replays: its messages are read upgraded. A request past the end throws {@link RecordingEndError}.
 *
 * @param source a recording file, or a {@link Recording}.
 * @example
 * const session = createSession(<SupportDesk />, { model: replayModel('recordings/refund.json') });
 */
export function replayModel(source: string | Recording, options: ReplayOptions = {}): ReplayModel {
  const recording = typeof source === 'string' ? readRecording(source) : parseRecording(source);
  const name = options.source ?? (typeof source === 'string' ? source : 'the recording');
  const clean = cleaner({ ...options, secrets: 'redact' });
  const ignore = options.ignore ?? [];
  let next = 0;

  function take(req: ModelRequest): RecordedExchange {
    const index = next;
    if (index >= recording.exchanges.length) {
      throw new RecordingEndError(
        `${name} has ${recording.exchanges.length} requests; request ${index + 1} was made. The agent now makes more model calls than when it was recorded: record it again.`,
      );
    }
    next++;
    const exchange = recording.exchanges[index];
    const now = clean(recordedRequest(req), `exchanges[${index}].request`);
    const found = differences(exchange.request, now, 20).filter((d) => !ignored(d.path, ignore) && !unknownKind(d));
    if (found.length > 0) {
      const [first] = found;
      const sides = sideBySide(first);
      const more =
        found.length > 1
          ? `\n  (also at ${found
              .slice(1, 6)
              .map((d) => d.path)
              .join(', ')}${found.length > 6 ? ', …' : ''})`
          : '';
      throw new RecordingMismatchError(
        `request ${index + 1} differs from ${name} at ${first.path}:\n  recorded: ${sides.recorded}\n  now:      ${sides.now}${more}\nThe agent changed since it was recorded: record it again, or ignore the path (replay option ignore).`,
        index + 1,
        first.path,
        found.map((d) => d.path),
      );
    }
    return exchange;
  }

  return {
    name: recording.model ?? 'replay',
    // Recorded with append-only requests: the session sends them again, as the recorded model made it.
    ...(recording.appendOnly ? { appendOnly: true } : {}),
    recording,
    get remaining() {
      return recording.exchanges.length - next;
    },
    async generate(req: ModelRequest, opts: ModelCallOptions): Promise<ModelResponse> {
      abortIfNeeded(opts?.signal);
      const exchange = take(req);
      if (exchange.response) return copy(exchange.response);
      if (exchange.error) throw replayedError(exchange.error);
      return assemble(exchange.stream ?? []);
    },
    async *stream(req: ModelRequest, opts: ModelCallOptions): AsyncIterable<ModelStreamPart> {
      abortIfNeeded(opts?.signal);
      const exchange = take(req);
      const parts = exchange.stream ?? (exchange.response ? partsOf(exchange.response) : []);
      for (const part of parts) {
        abortIfNeeded(opts?.signal);
        yield copy(part);
      }
      if (exchange.error) throw replayedError(exchange.error);
    },
  };
}
