/**
 * The recording file: provider-neutral requests (`system`, `context`, `messages`, `tools`,
 * `contextPlacement`, and `appendOnly` for a model that binds its reasoning to the prefix) and what
 * the model answered, as JSON. No headers, no keys: those never pass through the `Model` interface.
 * Messages are typed parts (version 2); a version 1 recording, whose messages' content was a
 * string, is read upgraded.
 */
import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import {
  type Message,
  type ModelRequest,
  type ModelResponse,
  type ModelStreamPart,
  parseMessage,
} from '@skilltree/core/provider';
import { recordingDigest, verifyRecording } from './verify.js';

/** A request as recorded: the neutral request's own fields, as JSON. */
export type RecordedRequest = Pick<
  ModelRequest,
  'system' | 'context' | 'messages' | 'tools' | 'contextPlacement' | 'appendOnly'
>;

/** One model call: the request, and the response (from `generate`), the parts (from `stream`), or the error. */
export interface RecordedExchange {
  request: RecordedRequest;
  response?: ModelResponse;
  stream?: ModelStreamPart[];
  error?: { name: string; message: string };
}

/** The version of the recordings this package writes: 2 since messages are typed parts. */
const RECORDING_VERSION = 2;

/** A recorded conversation with one model. */
export interface Recording {
  format: 'skilltree-recording';
  /** 2 (messages as typed parts); a version 1 recording is read upgraded. */
  version: 2;
  /** The model's name, e.g. `anthropic:claude-sonnet-4-5` (replays price and label with it). */
  model?: string;
  /**
   * The model bound its reasoning to the prefix (`Model.appendOnly`): the session sent it
   * append-only requests, and a replay makes the session send them again.
   */
  appendOnly?: true;
  exchanges: RecordedExchange[];
  /**
   * The digest of everything else, `sha256-<hex>`, written with the file: reading a recording
   * edited since refuses it before anything replays. A recording read into memory has none (it
   * was checked as it was read); one written before digests is checked without it.
   */
  integrity?: string;
}

/** The request's recorded fields, as JSON (the `lifecycle` getter and anything else left out). */
export function recordedRequest(req: ModelRequest): RecordedRequest {
  const { system, context, messages, tools, contextPlacement, appendOnly } = req;
  return JSON.parse(
    JSON.stringify({ system, context, messages, tools, contextPlacement, ...(appendOnly ? { appendOnly } : {}) }),
  ) as RecordedRequest;
}

/** An empty recording. */
export function emptyRecording(model?: string, appendOnly?: boolean): Recording {
  return {
    format: 'skilltree-recording',
    version: RECORDING_VERSION,
    ...(model ? { model } : {}),
    ...(appendOnly ? { appendOnly: true as const } : {}),
    exchanges: [],
  };
}

/**
 * A recorded message as today's shape (checked by core's `parseMessage`). A message recorded
 * before messages had parts is upgraded so that it reads as it did; a tool error of then gets no
 * error kind, since the recording cannot say which it was (a replay matches any kind there).
 */
function upgradeMessage(raw: unknown, where: string): Message {
  let message: Message;
  try {
    message = parseMessage(raw, where);
  } catch (error) {
    throw new Error(`${(error as Error).message} Record the conversation again.`);
  }
  const legacy = typeof (raw as { content?: unknown } | null)?.content === 'string';
  if (legacy && message.role === 'tool') delete message.errorKind;
  return message;
}

/**
 * Checks a recording's JSON (its text or the parsed value), whole, before anything replays: its
 * integrity digest when it has one, and that each recorded answer's calls are those the next
 * recorded request carries (see `verify.ts`). `source` names it in errors.
 */
export function parseRecording(data: unknown, source = 'the recording'): Recording {
  let value = data;
  if (typeof data === 'string') {
    try {
      value = JSON.parse(data);
    } catch (error) {
      throw new Error(`${source} is not JSON: ${error instanceof Error ? error.message : String(error)}`);
    }
  }
  const r = value as Partial<Recording> | null;
  if (!r || typeof r !== 'object' || r.format !== 'skilltree-recording') {
    throw new Error(`${source} is not a skilltree recording (no "format": "skilltree-recording").`);
  }
  const version = (r as { version?: unknown }).version;
  if (version !== 1 && version !== RECORDING_VERSION)
    throw new Error(`${source} has version ${String(version)}; this @skilltree/evals reads versions 1 and 2.`);
  if (!Array.isArray(r.exchanges)) throw new Error(`${source} has no "exchanges" list.`);
  // Whole before anything replays: a replayed answer runs the agent's real tools.
  verifyRecording(r as Record<string, unknown>, source);
  const exchanges = r.exchanges.map((e, i): RecordedExchange => {
    if (!e || typeof e !== 'object' || !e.request || typeof e.request !== 'object') {
      throw new Error(`${source}: exchanges[${i}] has no request.`);
    }
    if (!e.response && !Array.isArray(e.stream) && !e.error) {
      throw new Error(`${source}: exchanges[${i}] has no response, stream or error.`);
    }
    const where = `${source}: exchanges[${i}].request`;
    const request = { ...e.request };
    if (!Array.isArray(request.messages)) throw new Error(`${where} has no "messages" list.`);
    request.messages = request.messages.map((m, j) => upgradeMessage(m, `${where}.messages[${j}]`));
    if (request.appendOnly) {
      const items = request.appendOnly.items;
      if (!Array.isArray(items)) throw new Error(`${where}.appendOnly has no "items" list.`);
      request.appendOnly = {
        ...request.appendOnly,
        items: items.map((item, j) =>
          item?.role === 'system' ? item : upgradeMessage(item, `${where}.appendOnly.items[${j}]`),
        ),
      };
    }
    return { ...e, request };
  });
  const { integrity: _checked, ...rest } = r as Recording;
  return { ...rest, version: RECORDING_VERSION, exchanges };
}

/** Reads a recording file. */
export function readRecording(file: string): Recording {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    const missing = (error as NodeJS.ErrnoException).code === 'ENOENT';
    throw new Error(
      missing
        ? `No recording at ${file}: record it first (recordModel(model, { file }), or run the eval with recordings: { mode: 'record' }).`
        : `Could not read the recording ${file}: ${(error as Error).message}`,
    );
  }
  return parseRecording(text, file);
}

/**
 * Writes a recording, whole, through a temporary file (a reader never sees half of one), with its
 * integrity digest: a replay refuses the file once it was edited.
 */
export function writeRecording(file: string, recording: Recording): void {
  mkdirSync(dirname(file), { recursive: true });
  const temp = `${file}.${process.pid}.tmp`;
  const { integrity: _old, ...content } = recording;
  const sealed: Recording = { ...content, integrity: recordingDigest(content) };
  writeFileSync(temp, `${JSON.stringify(sealed, null, 2)}\n`);
  renameSync(temp, file);
}
