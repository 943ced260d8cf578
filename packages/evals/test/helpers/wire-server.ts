/**
 * A local server on 127.0.0.1 that speaks two providers' wire formats: Anthropic's Messages API
 * (`POST /v1/messages`, thinking blocks included) and OpenAI's Chat Completions
 * (`POST /v1/chat/completions`), streamed (SSE) or not. Each request is answered with the next scripted step and recorded, headers included, so
 * tests can see what reached the wire.
 */
import type { IncomingHttpHeaders } from 'node:http';
import {
  anthropicMessageObject,
  openaiChunkObject,
  openaiCompletionObject,
  openaiUsageObject,
  startServer,
} from '@skilltree/test-kit';

/** One scripted answer: text and/or tool calls, after a thinking block (Anthropic) when given. */
export interface WireStep {
  thinking?: { thinking: string; signature: string };
  text?: string;
  toolCalls?: { id: string; name: string; input: unknown }[];
}

/** A request as it arrived. */
export interface WireRequest {
  path: string;
  headers: IncomingHttpHeaders;
  body: any;
}

/** A running server. */
export interface WireServer {
  /** `http://127.0.0.1:<port>` */
  url: string;
  /** Every request so far, in order. */
  readonly requests: WireRequest[];
  /** Queues answers, used one per request. */
  script(...steps: WireStep[]): void;
  close(): Promise<void>;
}

const sse = (event: string | null, data: unknown) =>
  `${event ? `event: ${event}\n` : ''}data: ${typeof data === 'string' ? data : JSON.stringify(data)}\n\n`;

type Block =
  | { type: 'thinking'; thinking: string; signature: string }
  | { type: 'text'; text: string }
  | { type: 'tool_use'; id: string; name: string; input: unknown };

function anthropicContent(step: WireStep): Block[] {
  return [
    ...(step.thinking ? [{ type: 'thinking' as const, ...step.thinking }] : []),
    ...(step.text ? [{ type: 'text' as const, text: step.text }] : []),
    ...(step.toolCalls ?? []).map((c) => ({ type: 'tool_use' as const, id: c.id, name: c.name, input: c.input })),
  ];
}

const anthropicUsage = {
  input_tokens: 120,
  output_tokens: 8,
  cache_read_input_tokens: 100,
  cache_creation_input_tokens: 0,
};

function anthropicStream(step: WireStep): string {
  const stop = step.toolCalls?.length ? 'tool_use' : 'end_turn';
  let out = sse('message_start', {
    type: 'message_start',
    message: anthropicMessageObject([], null, { ...anthropicUsage, output_tokens: 1 }),
  });
  anthropicContent(step).forEach((block, index) => {
    if (block.type === 'thinking') {
      // As the API streams it: the text in deltas, then the signature in a delta of its own.
      out += sse('content_block_start', {
        type: 'content_block_start',
        index,
        content_block: { type: 'thinking', thinking: '', signature: '' },
      });
      out += sse('content_block_delta', {
        type: 'content_block_delta',
        index,
        delta: { type: 'thinking_delta', thinking: block.thinking },
      });
      out += sse('content_block_delta', {
        type: 'content_block_delta',
        index,
        delta: { type: 'signature_delta', signature: block.signature },
      });
    } else if (block.type === 'text') {
      out += sse('content_block_start', {
        type: 'content_block_start',
        index,
        content_block: { type: 'text', text: '' },
      });
      out += sse('content_block_delta', {
        type: 'content_block_delta',
        index,
        delta: { type: 'text_delta', text: block.text },
      });
    } else {
      out += sse('content_block_start', { type: 'content_block_start', index, content_block: { ...block, input: {} } });
      out += sse('content_block_delta', {
        type: 'content_block_delta',
        index,
        delta: { type: 'input_json_delta', partial_json: JSON.stringify(block.input) },
      });
    }
    out += sse('content_block_stop', { type: 'content_block_stop', index });
  });
  out += sse('message_delta', {
    type: 'message_delta',
    delta: { stop_reason: stop, stop_sequence: null },
    usage: { output_tokens: anthropicUsage.output_tokens },
  });
  return out + sse('message_stop', { type: 'message_stop' });
}

const openaiUsage = openaiUsageObject(120, 8, 100);

function openaiStream(step: WireStep): string {
  const chunk = (choices: unknown[], extra = {}) => sse(null, openaiChunkObject(choices, extra));
  let out = chunk([{ index: 0, delta: { role: 'assistant', content: step.text ?? '' }, finish_reason: null }]);
  (step.toolCalls ?? []).forEach((c, i) => {
    out += chunk([
      {
        index: 0,
        delta: {
          tool_calls: [
            { index: i, id: c.id, type: 'function', function: { name: c.name, arguments: JSON.stringify(c.input) } },
          ],
        },
        finish_reason: null,
      },
    ]);
  });
  out += chunk([{ index: 0, delta: {}, finish_reason: step.toolCalls?.length ? 'tool_calls' : 'stop' }]);
  return out + chunk([], { usage: openaiUsage }) + sse(null, '[DONE]');
}

/** Starts a server on a free port of 127.0.0.1 (the test kit's recording server, answering from the script). */
export async function startWireServer(): Promise<WireServer> {
  const steps: WireStep[] = [];
  const server = await startServer({
    fallback: (req, res, body) => {
      const step = steps.shift();
      if (!step) {
        res.writeHead(500, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ error: { type: 'api_error', message: 'no step scripted for this request' } }));
        return;
      }
      const anthropic = (req.url ?? '').endsWith('/messages');
      if (body?.stream) {
        res.writeHead(200, { 'content-type': 'text/event-stream' });
        res.end(anthropic ? anthropicStream(step) : openaiStream(step));
        return;
      }
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(
        JSON.stringify(
          anthropic
            ? anthropicMessageObject(
                anthropicContent(step),
                step.toolCalls?.length ? 'tool_use' : 'end_turn',
                anthropicUsage,
              )
            : openaiCompletionObject(step, openaiUsage),
        ),
      );
    },
  });
  return {
    url: server.url,
    get requests() {
      return server.requests.map((r) => ({ path: r.url, headers: r.headers, body: r.body ?? {} }));
    },
    script: (...more) => steps.push(...more),
    close: () => server.close(),
  };
}
