/**
 * A local OpenAI-compatible Chat Completions server for the CLI's end-to-end tests: JSON and SSE
 * streaming, text and tool calls, scripted error responses, and usage counted from each request
 * (with `prompt_tokens_details.cached_tokens` for the prefix shared with the previous request).
 * Listens on 127.0.0.1 only.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** One scripted completion: text and/or tool calls, or an HTTP error. */
export interface ServerStep {
  text?: string;
  toolCalls?: { name: string; arguments: Record<string, unknown> | string }[];
  /** Respond with this HTTP status and an OpenAI-style error body instead. */
  status?: number;
  error?: string;
}

/** The usage the server reported for one completion, as it went on the wire. */
export interface WireUsage {
  prompt_tokens: number;
  completion_tokens: number;
  total_tokens: number;
  prompt_tokens_details: { cached_tokens: number };
}

/** A running server. */
export interface OpenAIServer {
  /** The base URL to give the OpenAI client (`OPENAI_BASE_URL`), ending in `/v1`. */
  baseURL: string;
  /** Parsed bodies of every `/chat/completions` request, in order. */
  requests: any[];
  /** Steps not used yet. */
  steps: ServerStep[];
  /** The usage reported for each answered completion, in order. */
  usages: WireUsage[];
  close(): Promise<void>;
}

let ids = 0;

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    let body = '';
    req.setEncoding('utf8');
    req.on('data', (chunk) => {
      body += chunk;
    });
    req.on('end', () => resolve(body));
    req.on('error', reject);
  });
}

function toolCallsOf(step: ServerStep) {
  return (step.toolCalls ?? []).map((call) => ({
    id: `call_srv_${++ids}`,
    type: 'function' as const,
    function: {
      name: call.name,
      arguments: typeof call.arguments === 'string' ? call.arguments : JSON.stringify(call.arguments),
    },
  }));
}

function commonPrefix(a: string, b: string): number {
  let i = 0;
  while (i < a.length && i < b.length && a[i] === b[i]) i++;
  return i;
}

/**
 * Usage counted like a provider would, roughly: one token per 4 characters of the request's
 * messages and tools, the part shared with the previous request's start as cached (in whole
 * 16-token blocks), and one token per 4 characters of the reply.
 */
function countUsage(body: any, previous: string | null, step: ServerStep): { usage: WireUsage; prompt: string } {
  const prompt = JSON.stringify({ tools: body.tools ?? [], messages: body.messages });
  const tokens = (chars: number) => Math.ceil(chars / 4);
  const cached = previous === null ? 0 : Math.floor(commonPrefix(previous, prompt) / 64) * 16;
  const reply = (step.text ?? '') + JSON.stringify(step.toolCalls ?? []);
  const promptTokens = tokens(prompt.length);
  const completion = tokens(reply.length);
  return {
    prompt,
    usage: {
      prompt_tokens: promptTokens,
      completion_tokens: completion,
      total_tokens: promptTokens + completion,
      prompt_tokens_details: { cached_tokens: cached },
    },
  };
}

function sendJson(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify(body));
}

function sendStream(res: ServerResponse, step: ServerStep, model: string, usage: WireUsage | null): void {
  res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache', connection: 'keep-alive' });
  const id = `chatcmpl-${++ids}`;
  const chunk = (delta: Record<string, unknown>, finish: string | null = null) =>
    res.write(
      `data: ${JSON.stringify({
        id,
        object: 'chat.completion.chunk',
        created: 1_700_000_000,
        model,
        choices: [{ index: 0, delta, finish_reason: finish }],
      })}\n\n`,
    );
  chunk({ role: 'assistant', content: '' });
  const text = step.text ?? '';
  // Split the text into a few pieces, as a real server streams it.
  for (const piece of text.match(/.{1,5}/gs) ?? []) chunk({ content: piece });
  toolCallsOf(step).forEach((call, index) => {
    chunk({
      tool_calls: [{ index, id: call.id, type: 'function', function: { name: call.function.name, arguments: '' } }],
    });
    const args = call.function.arguments;
    const half = Math.ceil(args.length / 2);
    chunk({ tool_calls: [{ index, function: { arguments: args.slice(0, half) } }] });
    chunk({ tool_calls: [{ index, function: { arguments: args.slice(half) } }] });
  });
  chunk({}, step.toolCalls?.length ? 'tool_calls' : 'stop');
  if (usage) {
    res.write(
      `data: ${JSON.stringify({ id, object: 'chat.completion.chunk', created: 1_700_000_000, model, choices: [], usage })}\n\n`,
    );
  }
  res.write('data: [DONE]\n\n');
  res.end();
}

/** Starts the server with `steps`, answered in order (a missing step is a 500 that says so). */
export async function startOpenAIServer(steps: ServerStep[]): Promise<OpenAIServer> {
  const requests: any[] = [];
  const usages: WireUsage[] = [];
  const queue = [...steps];
  let previous: string | null = null;
  const server: Server = createServer(async (req, res) => {
    if (req.method !== 'POST' || !req.url?.endsWith('/chat/completions')) {
      sendJson(res, 404, { error: { message: `no route ${req.method} ${req.url}`, type: 'invalid_request_error' } });
      return;
    }
    const body = JSON.parse(await readBody(req));
    requests.push(body);
    const step = queue.shift();
    if (!step) {
      sendJson(res, 400, { error: { message: 'test server: no scripted step left', type: 'invalid_request_error' } });
      return;
    }
    if (step.status) {
      sendJson(res, step.status, { error: { message: step.error ?? 'scripted error', type: 'invalid_request_error' } });
      return;
    }
    const counted = countUsage(body, previous, step);
    previous = counted.prompt;
    const { usage } = counted;
    usages.push(usage);
    if (body.stream) {
      sendStream(res, step, body.model, body.stream_options?.include_usage === true ? usage : null);
      return;
    }
    const toolCalls = toolCallsOf(step);
    sendJson(res, 200, {
      id: `chatcmpl-${++ids}`,
      object: 'chat.completion',
      created: 1_700_000_000,
      model: body.model,
      choices: [
        {
          index: 0,
          message: {
            role: 'assistant',
            content: step.text ?? null,
            ...(toolCalls.length ? { tool_calls: toolCalls } : {}),
          },
          finish_reason: toolCalls.length ? 'tool_calls' : 'stop',
        },
      ],
      usage,
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseURL: `http://127.0.0.1:${port}/v1`,
    requests,
    steps: queue,
    usages,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
