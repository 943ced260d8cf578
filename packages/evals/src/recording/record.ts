/**
 * `recordModel`: wraps any model and records each request and what it answered, so that the
 * conversation can be replayed offline (`replayModel`).
 */
import type { Model, ModelCallOptions, ModelRequest, ModelResponse, ModelStreamPart } from '@skilltree/core/provider';
import { emptyRecording, type RecordedExchange, type Recording, recordedRequest, writeRecording } from './file.js';
import { type CleanOptions, cleaner } from './secrets.js';

/** Options of {@link recordModel}. */
export interface RecordOptions extends CleanOptions {
  /** Where to write the recording; it is rewritten after every model call. Without it, read `model.recording`. */
  file?: string;
}

/** A model that records: the wrapped model, plus what it recorded. */
export interface RecordingModel extends Model {
  /** The recording so far (cleaned: redacted as it will be written). */
  readonly recording: Recording;
  /** Writes the recording to `file` (default: the `file` option). */
  save(file?: string): void;
}

const errorOf = (error: unknown) => ({
  name: error instanceof Error ? error.name : 'Error',
  message: error instanceof Error ? error.message : String(error),
});

/**
 * Wraps `model` so that each call is recorded: the provider-neutral request (system, context,
 * messages, tools, and the append-only request of a model that takes one) and the response, the
 * streamed parts or the error (reasoning included, as the model returned it). Every string goes
 * through `redact` and a scan for secrets first (see {@link CleanOptions}); the live conversation
 * is not changed.
 *
 * @example
 * const model = recordModel(anthropic({ model: 'claude-sonnet-4-5' }), { file: 'recordings/refund.json' });
 * await createSession(<SupportDesk />, { model }).send('Refund A-1013 please');
 */
export function recordModel(model: Model, options: RecordOptions = {}): RecordingModel {
  const clean = cleaner(options);
  const recording = emptyRecording(model.name, model.appendOnly);
  const save = (file = options.file) => {
    if (file) writeRecording(file, recording);
  };
  const push = (exchange: RecordedExchange) => {
    recording.exchanges.push(clean(exchange, `exchanges[${recording.exchanges.length}]`));
    save();
  };
  const wrapped: RecordingModel = {
    name: model.name,
    // A model that binds its reasoning to the prefix gets append-only requests through the wrapper too.
    ...(model.appendOnly ? { appendOnly: true } : {}),
    // And a model that does not read some kind of file is sent its description through it.
    ...(model.accepts ? { accepts: model.accepts } : {}),
    recording,
    save,
    async generate(req: ModelRequest, opts: ModelCallOptions): Promise<ModelResponse> {
      const request = recordedRequest(req);
      let response: ModelResponse;
      try {
        response = await model.generate(req, opts);
      } catch (error) {
        push({ request, error: errorOf(error) });
        throw error;
      }
      push({ request, response: JSON.parse(JSON.stringify(response)) });
      return response;
    },
  };
  const inner = model.stream?.bind(model);
  if (inner) {
    wrapped.stream = async function* (req: ModelRequest, opts: ModelCallOptions): AsyncIterable<ModelStreamPart> {
      const request = recordedRequest(req);
      const parts: ModelStreamPart[] = [];
      let ended = false;
      try {
        for await (const part of inner(req, opts)) {
          parts.push(JSON.parse(JSON.stringify(part)));
          yield part;
        }
        ended = true;
        push({ request, stream: parts });
      } catch (error) {
        ended = true;
        push({ request, stream: parts, error: errorOf(error) });
        throw error;
      } finally {
        // The caller left the stream early (an abort): what arrived is recorded, as an abort.
        if (!ended)
          push({ request, stream: parts, error: { name: 'AbortError', message: 'The stream was left early.' } });
      }
    };
  }
  return wrapped;
}
