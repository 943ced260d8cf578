/**
 * The recording file: provider-neutral requests (`system`, `context`, `messages`, `tools`,
 * `contextPlacement`) and what the model answered, as JSON. No headers, no keys: those never pass
 * through the `Model` interface.
 */
import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import type { ModelRequest, ModelResponse, ModelStreamPart } from '@skilltree/core';

/** A request as recorded: the neutral request's own fields, as JSON. */
export type RecordedRequest = Pick<ModelRequest, 'system' | 'context' | 'messages' | 'tools' | 'contextPlacement'>;

/** One model call: the request, and the response (from `generate`), the parts (from `stream`), or the error. */
export interface RecordedExchange {
  request: RecordedRequest;
  response?: ModelResponse;
  stream?: ModelStreamPart[];
  error?: { name: string; message: string };
}

/** A recorded conversation with one model. */
export interface Recording {
  format: 'skilltree-recording';
  version: 1;
  /** The model's name, e.g. `anthropic:claude-sonnet-4-5` (replays price and label with it). */
  model?: string;
  exchanges: RecordedExchange[];
}

/** The request's recorded fields, as JSON (the `lifecycle` getter and anything else left out). */
export function recordedRequest(req: ModelRequest): RecordedRequest {
  const { system, context, messages, tools, contextPlacement } = req;
  return JSON.parse(JSON.stringify({ system, context, messages, tools, contextPlacement })) as RecordedRequest;
}

/** An empty recording. */
export function emptyRecording(model?: string): Recording {
  return { format: 'skilltree-recording', version: 1, ...(model ? { model } : {}), exchanges: [] };
}

/** Checks a recording's JSON (its text or the parsed value); `source` names it in errors. */
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
  if (r.version !== 1)
    throw new Error(`${source} has version ${String(r.version)}; this @skilltree/evals reads version 1.`);
  if (!Array.isArray(r.exchanges)) throw new Error(`${source} has no "exchanges" list.`);
  r.exchanges.forEach((e, i) => {
    if (!e || typeof e !== 'object' || !e.request || typeof e.request !== 'object') {
      throw new Error(`${source}: exchanges[${i}] has no request.`);
    }
    if (!e.response && !Array.isArray(e.stream) && !e.error) {
      throw new Error(`${source}: exchanges[${i}] has no response, stream or error.`);
    }
  });
  return r as Recording;
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

/** Writes a recording, whole, through a temporary file (a reader never sees half of one). */
export function writeRecording(file: string, recording: Recording): void {
  mkdirSync(dirname(file), { recursive: true });
  const temp = `${file}.${process.pid}.tmp`;
  writeFileSync(temp, `${JSON.stringify(recording, null, 2)}\n`);
  renameSync(temp, file);
}
