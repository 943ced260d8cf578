/**
 * Shared test pieces: a notes agent, a rule-driven model (no script to run out of), a handler on a
 * real loopback server, and a client made of the `ai` package's own transport and stream reader.
 */
import type { Server } from 'node:http';
import {
  Agent,
  createAgentStore,
  createSessions,
  Instructions,
  type Message,
  type Model,
  type ModelRequest,
  memoryStore,
  type Sessions,
  type SessionsOptions,
  Skill,
  Text,
  Tool,
  textOf,
  useAgentStore,
} from '@skilltree/core';
import type { ModelStreamPart, ReasoningPart } from '@skilltree/core/provider';
import { AppendTool } from '@skilltree/test-kit';
import { DefaultChatTransport, readUIMessageStream, type UIMessageChunk } from 'ai';
import { z } from 'zod';
import { createHandler, type HandlerOptions, type SkilltreeUIMessage } from '../src/index.js';
import { type RouteName, routePath } from '../src/routes.js';
import { listen } from './served.js';

const notes = createAgentStore('notes', () => ({ items: [] as string[] }));

function Notes() {
  const items = useAgentStore(notes, (s) => s.items);
  return (
    <>
      <Instructions>Keep the user's notes.</Instructions>
      <Text>Notes: {items.join(', ') || 'none'}</Text>
      <AppendTool store={notes} list="items" name="add_note" description="Add a note" field="text" />
      <Tool
        name="explode"
        description="Always fails"
        run={() => {
          throw new Error('the fuse was lit');
        }}
      />
      <Tool
        name="connect_db"
        description="Fails as a database driver does"
        run={() => {
          throw new Error(`connect ECONNREFUSED ${DB_SECRET}`);
        }}
      />
      <Tool
        name="hold"
        description="Waits until the test releases it"
        run={() =>
          new Promise<string>((resolve) => {
            held.release = resolve;
          })
        }
      />
      <Tool
        name="refund_order"
        description="Refunds an order of the user's"
        input={z.object({ order: z.string().refine((order) => order !== '7', `Order 7 belongs to ${OTHER_CUSTOMER}`) })}
        run={({ order }) => `refunded ${order}`}
      />
      <Tool
        name="wait"
        description="Waits until the turn is aborted"
        run={(_input, ctx) =>
          new Promise<string>((_resolve, reject) => {
            waiting.count++;
            ctx.signal.addEventListener('abort', () => reject(new Error('aborted while waiting')), { once: true });
          })
        }
      />
    </>
  );
}

/** What the `connect_db` tool's error carries: a connection string with a password, a host and a path. */
export const DB_SECRET = 'postgres://shop_admin:hunter2@db.internal.example:5432/orders?sslcert=/etc/ssl/shop.pem';

/** What the model streams for `ramble` before it waits to be aborted. */
export const RAMBLE = 'Let me think about this at length, starting with';

/** The running `hold` call's release: the test calls it to let the tool return its text. */
export const held: { release: ((text: string) => void) | null } = { release: null };

/** What the `refund_order` schema's refinement says about order 7: another customer's address. */
export const OTHER_CUSTOMER = 'bob@example.com (Bob Jones, 12 Rue de la Paix)';

/** How many `wait` calls have started (a test waits for one before it disconnects). */
export const waiting = { count: 0 };

/** The agent every test serves: one skill, `notes`. */
export function NotesAgent() {
  return (
    <Agent>
      <Instructions>You help with notes.</Instructions>
      <Skill name="notes" description="Keep notes">
        <Notes />
      </Skill>
    </Agent>
  );
}

type Step = { reasoning?: ReasoningPart[]; text?: string; toolCalls?: { id: string; name: string; input: unknown }[] };

/** What the model thinks for `think`, as a provider returns it: readable text beside what only it may read. */
export const THOUGHTS = {
  first: {
    type: 'reasoning',
    provider: 'anthropic',
    model: 'rules',
    text: 'The user wants a note: the notes skill has the tool.',
    providerData: { signature: 'SIGNATURE-OF-THE-FIRST-BLOCK' },
  },
  hidden: {
    type: 'reasoning',
    provider: 'anthropic',
    model: 'rules',
    text: '',
    providerData: { redactedData: 'REDACTED-SECOND-BLOCK' },
  },
  last: {
    type: 'reasoning',
    provider: 'openai',
    model: 'rules',
    text: 'It is added; say so.',
    providerData: { encryptedContent: 'ENCRYPTED-THIRD-BLOCK', itemId: 'rs_3' },
  },
} satisfies Record<string, ReasoningPart>;

/** A turn that reads the notes skill, then makes `calls` (saying `say` beside them), then ends with `end`. */
interface Script {
  say?: string;
  calls: NonNullable<Step['toolCalls']>;
  /** The reply after the calls, or `wait`: the model call never returns. */
  end: Step | 'wait';
}

/** The scripted messages, by their text. */
const SCRIPTS = new Map<string, Script>([
  [
    'two notes',
    {
      say: 'Adding both.',
      calls: [
        { id: 'a', name: 'add_note', input: { text: 'one' } },
        { id: 'b', name: 'add_note', input: { text: 'two' } },
      ],
      end: { text: 'Both added.' },
    },
  ],
  ['explode', { calls: [{ id: 'x', name: 'explode', input: {} }], end: { text: 'That failed.' } }],
  ['db', { calls: [{ id: 'd', name: 'connect_db', input: {} }], end: { text: 'The database is down.' } }],
  [
    'mistakes',
    {
      calls: [
        { id: 'u', name: 'buy_insurance', input: {} },
        { id: 'i', name: 'add_note', input: { text: 5 } },
      ],
      end: { text: 'Sorry.' },
    },
  ],
  ['hold', { calls: [{ id: 'h', name: 'hold', input: {} }], end: { text: 'Held and released.' } }],
  [
    'refund 7',
    { calls: [{ id: 'f', name: 'refund_order', input: { order: '7' } }], end: { text: 'I cannot refund that order.' } },
  ],
  ['wait', { calls: [{ id: 'w', name: 'wait', input: {} }], end: 'wait' }],
]);

/** The script for `text`: `note <text>` adds that note; the others are {@link SCRIPTS}. */
function scriptOf(text: string): Script | undefined {
  const note = /^note (.+)$/.exec(text);
  if (note)
    return { calls: [{ id: 'a', name: 'add_note', input: { text: note[1] } }], end: { text: `Noted: ${note[1]}.` } };
  return SCRIPTS.get(text);
}

/** What the rule model does at `step` (0-based, model calls since the user's message) for `text`. */
function decide(text: string, step: number): Step | 'fail' | 'wait' | 'ramble' {
  if (text === 'ramble') return 'ramble';
  const read = { id: 'r', name: 'read_skill', input: { name: 'notes' } };
  if (text === 'think') {
    if (step === 0) return { reasoning: [THOUGHTS.first], text: 'Let me open my notes.', toolCalls: [read] };
    if (step === 1)
      return { reasoning: [THOUGHTS.hidden], toolCalls: [{ id: 'a', name: 'add_note', input: { text: 'x' } }] };
    return { reasoning: [THOUGHTS.last], text: 'Noted: x.' };
  }
  const script = scriptOf(text);
  if (script) {
    // Copies: no turn shares a step's objects with another.
    if (step === 0) return { toolCalls: [read] };
    if (step === 1)
      return { ...(script.say === undefined ? {} : { text: script.say }), toolCalls: structuredClone(script.calls) };
    return structuredClone(script.end);
  }
  if (text === 'fail') {
    if (step === 0) return { toolCalls: [read] };
    return 'fail';
  }
  return { text: `echo: ${text}` };
}

function situation(req: ModelRequest): { text: string; step: number } {
  let last = req.messages.length - 1;
  while (last >= 0 && req.messages[last].role !== 'user') last--;
  const user = req.messages[last] as Extract<Message, { role: 'user' }>;
  const text = textOf(user).split('\n')[0];
  const step = req.messages.slice(last + 1).filter((m) => m.role === 'assistant').length;
  return { text, step };
}

/** A model that follows fixed rules on the user's message: it never runs out, and streams its text in pieces. */
export function ruleModel(): Model {
  return {
    name: 'rules',
    async generate(req) {
      const { text, step } = situation(req);
      const decision = decide(text, step);
      if (decision === 'fail') throw new Error('the model is down');
      if (decision === 'wait' || decision === 'ramble') throw new Error(`unexpected ${decision}`);
      const content = [
        ...(decision.reasoning ?? []),
        ...(decision.text ? [{ type: 'text' as const, text: decision.text }] : []),
      ];
      return { text: decision.text ?? '', content, toolCalls: decision.toolCalls ?? [] };
    },
    async *stream(req, { signal }): AsyncIterable<ModelStreamPart> {
      const { text, step } = situation(req);
      const decision = decide(text, step);
      if (decision === 'fail') throw new Error('the model is down');
      if (decision === 'wait' || decision === 'ramble') {
        // `ramble` streams a few words first, then both wait until the call is aborted.
        if (decision === 'ramble') yield { type: 'text-delta', text: RAMBLE };
        await new Promise((_r, reject) => signal?.addEventListener('abort', () => reject(signal.reason)));
        return;
      }
      for (const reasoning of decision.reasoning ?? []) {
        // Readable reasoning as it streams, then the finished block (signed, redacted or encrypted).
        for (const word of reasoning.text.split(/(?<= )/)) if (word) yield { type: 'reasoning-delta', text: word };
        yield { type: 'reasoning', reasoning };
      }
      if (decision.text) {
        const words = decision.text.split(/(?<= )/);
        for (const word of words) yield { type: 'text-delta', text: word };
      }
      for (const call of decision.toolCalls ?? []) yield { type: 'tool-call', ...call };
      yield { type: 'finish', usage: { inputTokens: 10, outputTokens: 5 } };
    },
  };
}

/** A handler on a real server on 127.0.0.1 (a loopback client, as the handler sees it). */
export interface TestServer {
  url: string;
  sessions: Sessions;
  server: Server;
  logs: string[];
  close(): Promise<void>;
}

/** Starts sessions of the notes agent and a handler over them. */
export async function startServer(
  options: Partial<HandlerOptions> & { sessionsOptions?: SessionsOptions } = {},
): Promise<TestServer> {
  const { sessionsOptions, ...handlerOptions } = options;
  const sessions = createSessions(<NotesAgent />, { store: memoryStore(), model: ruleModel(), ...sessionsOptions });
  const logs: string[] = [];
  const handler = createHandler({
    sessions,
    authorize: (request) => request.headers.get('x-user'),
    log: (line) => logs.push(line),
    ...handlerOptions,
  });
  return { ...(await listen(handler, sessions)), sessions, logs };
}

/**
 * The path of a route under `/api` (the default basePath), built from the handler's route table:
 * `apiPath('chat-stop', 'c1')` is `/api/chat/c1/stop`. Tests build their paths with it, so a route
 * changes in the table only.
 */
export function apiPath(name: RouteName, id?: string, file?: string): string {
  return routePath(name, '/api', { ...(id === undefined ? {} : { id }), ...(file === undefined ? {} : { file }) });
}

/** POSTs `body` (as JSON) to the chat route of the server at `url`, as `user`: the raw response. */
export function postChat(url: string, user: string, body: unknown): Promise<Response> {
  return fetch(`${url}${apiPath('chat')}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-user': user },
    body: JSON.stringify(body),
  });
}

/** A user message as useChat makes it. */
export function userMessage(text: string, id = `u-${Math.random().toString(36).slice(2)}`): SkilltreeUIMessage {
  return { id, role: 'user', parts: [{ type: 'text', text }] };
}

/**
 * Sends `text` to chat `chatId` through `transport` and reads the whole reply with `readUIMessageStream`:
 * the final assistant message, every chunk, and what the reader reported as errors. `onChunk` sees
 * each chunk (and those before it) before the next one is read.
 */
export async function sendThrough(
  transport: DefaultChatTransport<SkilltreeUIMessage>,
  chatId: string,
  text: string,
  options: {
    signal?: AbortSignal;
    onChunk?: (chunk: UIMessageChunk, before: readonly UIMessageChunk[]) => Promise<void> | void;
  } = {},
) {
  const stream = await transport.sendMessages({
    chatId,
    messages: [userMessage(text)],
    trigger: 'submit-message',
    messageId: undefined,
    abortSignal: options.signal,
  });
  const chunks: UIMessageChunk[] = [];
  const errors: unknown[] = [];
  const tapped = stream.pipeThrough(
    new TransformStream<UIMessageChunk, UIMessageChunk>({
      async transform(chunk, controller) {
        await options.onChunk?.(chunk, chunks);
        chunks.push(chunk);
        controller.enqueue(chunk);
      },
    }),
  );
  let message: SkilltreeUIMessage | undefined;
  for await (const m of readUIMessageStream<SkilltreeUIMessage>({ stream: tapped, onError: (e) => errors.push(e) })) {
    message = m;
  }
  return { message: message as SkilltreeUIMessage, chunks, errors };
}

/** The `ai` package's own client: `DefaultChatTransport` sends, `readUIMessageStream` reads. */
export function client(url: string, user: string | null = 'alice') {
  const headers: Record<string, string> = user === null ? {} : { 'x-user': user };
  const transport = new DefaultChatTransport<SkilltreeUIMessage>({ api: `${url}${apiPath('chat')}`, headers });
  return {
    transport,
    /** Sends `text` to chat `chatId` and reads the whole reply: the final assistant message and every chunk. */
    send: (chatId: string, text: string, signal?: AbortSignal) => sendThrough(transport, chatId, text, { signal }),
    /** `GET /api/chat/:id` */
    async history(chatId: string): Promise<Response> {
      return fetch(`${url}${apiPath('chat-id', chatId)}`, { headers });
    },
    /** `POST /api/chat/:id/stop` */
    async stop(chatId: string): Promise<Response> {
      return fetch(`${url}${apiPath('chat-stop', chatId)}`, { method: 'POST', headers });
    },
  };
}

/** A JSON-roundtripped copy: drops `undefined` fields the stream reader leaves on parts. */
export function plain<T>(value: T): T {
  return JSON.parse(JSON.stringify(value)) as T;
}

/** Every tool call in `messages` has exactly one result after it (the rule lives in the test kit). */
export { transcriptIsValid } from '@skilltree/test-kit';

/** Reads a Response's UI message stream as raw SSE text (for header and wire checks). */
export async function chunksOf(stream: ReadableStream<UIMessageChunk>): Promise<UIMessageChunk[]> {
  const out: UIMessageChunk[] = [];
  for await (const chunk of stream as unknown as AsyncIterable<UIMessageChunk>) out.push(chunk);
  return out;
}
