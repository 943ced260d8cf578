/**
 * Reading `POST /chat`: a JSON body of bounded size, in the shape the AI SDK's `DefaultChatTransport`
 * sends (`{ id, messages, trigger, messageId, … }`), or `{ id, message }` from a transport that sends
 * only the new message.
 */
import { approvalTarget, incarnationOfApproval } from './approval-id.js';
import { HttpError } from './http.js';

/** Chat ids the handler accepts: 1 to 128 of `A-Z a-z 0-9 _ - . : @`, not starting with a dot. */
export const CHAT_ID = /^[A-Za-z0-9_\-:@][A-Za-z0-9_\-.:@]{0,127}$/;

/** Checks a chat id from a path or a body; throws a 400 {@link HttpError} for anything else. */
export function checkChatId(id: unknown): string {
  if (typeof id !== 'string' || !CHAT_ID.test(id)) {
    throw new HttpError(
      400,
      'invalid_id',
      'Invalid chat id: use 1 to 128 letters, digits and _ - . : @ (not starting with a dot).',
    );
  }
  return id;
}

/**
 * Reads the body as text, refusing more than `max` bytes (by `Content-Length` first, then while
 * reading) and any compressed body (`Content-Encoding` other than `identity`).
 */
export async function readBody(request: Request, max: number): Promise<string> {
  const tooLarge = () => new HttpError(413, 'body_too_large', `The request body is larger than ${max} bytes.`);
  // A compressed body is refused, never inflated: a few kilobytes of gzip can hold gigabytes.
  const encoding = request.headers.get('content-encoding')?.trim().toLowerCase();
  if (encoding && encoding !== 'identity') {
    throw new HttpError(
      415,
      'unsupported_encoding',
      `The request body is compressed (content-encoding: ${encoding.slice(0, 40)}): send it uncompressed.`,
    );
  }
  const declared = request.headers.get('content-length');
  if (declared !== null && Number(declared) > max) throw tooLarge();
  if (!request.body) return '';
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > max) {
      await reader.cancel().catch(() => {});
      throw tooLarge();
    }
    chunks.push(value);
  }
  const bytes = new Uint8Array(size);
  let at = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, at);
    at += chunk.byteLength;
  }
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    throw new HttpError(400, 'invalid_body', 'The request body is not valid UTF-8.');
  }
}

/** A file of the user's message, as useChat sends it (a data URL, or a URL), for the session to check. */
export interface ChatFile {
  data?: string;
  url?: string;
  mediaType?: string;
  filename?: string;
}

/** What a chat request asks for: a new user message, or answers to calls that wait. */
export interface ChatRequest {
  /** The chat (session) id. */
  id: string;
  /** The new user message's text ('' for answers, or a message of files only). */
  text: string;
  /** The files of the new user message (useChat's file parts). */
  files: ChatFile[];
  /**
   * Answers from the last assistant message (useChat's `addToolApprovalResponse` and `addToolResult`),
   * or null for a new user message. Results are candidates: the handler keeps those of calls that wait.
   */
  answers: ChatAnswer[] | null;
  /** With answers: the id of the assistant message they answer, which the answer's stream goes on. */
  messageId?: string;
}

/**
 * One answer read from a tool part of the last assistant message, with what binds it to the call the
 * person saw: the part's `input` (when it has one) and, for an approval, the incarnation its approval
 * id names (see `approval-id.ts`; absent when the id names none).
 */
export type ChatAnswer = (
  | { toolCallId: string; type: 'approve' }
  | { toolCallId: string; type: 'deny'; reason?: string }
  | { toolCallId: string; type: 'result'; output: unknown; isError?: boolean }
) & {
  input?: unknown;
  incarnation?: string;
  /**
   * The call the approval id names when it is not the part's own: a call inside a subagent run asks
   * on the tool part of the parent's call. Used only when that call waits inside a run of the chat.
   */
  inside?: { incarnation: string; toolCallId: string };
};

const bad = (message: string) => new HttpError(400, 'invalid_body', message);

/** The text of a `UIMessage`-like value's text parts (or its `content` string), or null. */
function textOf(message: Record<string, unknown>): string | null {
  if (Array.isArray(message.parts)) {
    const texts = message.parts
      .filter((p): p is { type: 'text'; text: string } => {
        const part = p as { type?: unknown; text?: unknown } | null;
        return part !== null && typeof part === 'object' && part.type === 'text' && typeof part.text === 'string';
      })
      .map((p) => p.text);
    return texts.length > 0 ? texts.join('\n') : null;
  }
  return typeof message.content === 'string' ? message.content : null;
}

/**
 * Parses and checks a chat body. Only the last message counts (the server keeps the conversation);
 * it must be a user message with text.
 */
export function parseChatBody(raw: string, maxMessageLength: number): ChatRequest {
  let body: unknown;
  try {
    body = JSON.parse(raw);
  } catch {
    throw bad('The request body is not valid JSON.');
  }
  if (body === null || typeof body !== 'object' || Array.isArray(body)) {
    throw bad('The request body must be a JSON object: { id, messages } as useChat sends it.');
  }
  const fields = body as Record<string, unknown>;
  const id = checkChatId(fields.id);
  if (fields.trigger !== undefined && fields.trigger !== 'submit-message') {
    throw bad(
      `trigger "${String(fields.trigger)}" is not supported: a skilltree chat keeps its transcript on the server, so send a new message instead of regenerating one.`,
    );
  }
  let last: unknown;
  if (fields.message !== undefined) last = fields.message;
  else if (Array.isArray(fields.messages)) last = fields.messages[fields.messages.length - 1];
  else throw bad('The request body needs "messages" (an array, as useChat sends it) or "message".');
  if (last === null || typeof last !== 'object' || Array.isArray(last)) throw bad('The last message is not an object.');
  const message = last as Record<string, unknown>;
  if (message.role === 'assistant') {
    const messageId = typeof message.id === 'string' && message.id.length <= 256 ? message.id : undefined;
    return { id, text: '', files: [], answers: answersOf(message), ...(messageId ? { messageId } : {}) };
  }
  if (message.role !== 'user')
    throw bad('The last message must be a user message (or the assistant message with your answers).');
  const files = filesOf(message);
  const text = textOf(message) ?? '';
  if (text.trim() === '' && files.length === 0) throw bad('The user message has no text and no files.');
  if (text.length > maxMessageLength) {
    throw new HttpError(
      413,
      'message_too_long',
      `The message is ${text.length} characters long; the limit is ${maxMessageLength}.`,
    );
  }
  return { id, text, files, answers: null };
}

const MAX_FILES = 100;

/** useChat's file parts of a user message (`{ type: 'file', mediaType, url, filename }`). */
function filesOf(message: Record<string, unknown>): ChatFile[] {
  if (!Array.isArray(message.parts)) return [];
  const files: ChatFile[] = [];
  for (const raw of message.parts) {
    const part = raw as Record<string, unknown> | null;
    if (!part || typeof part !== 'object' || part.type !== 'file') continue;
    if (typeof part.url !== 'string' || part.url === '') throw bad('A file part needs a url (a data URL).');
    if (files.length >= MAX_FILES) throw bad(`A message may carry at most ${MAX_FILES} file parts.`);
    const file: ChatFile = part.url.startsWith('data:') ? { data: part.url } : { url: part.url };
    if (typeof part.mediaType === 'string') file.mediaType = part.mediaType;
    if (typeof part.filename === 'string') file.filename = part.filename.slice(0, 255);
    files.push(file);
  }
  return files;
}

/** The answers a tool part of the last assistant message carries (approval responses, client results). */
function answersOf(message: Record<string, unknown>): ChatAnswer[] {
  if (!Array.isArray(message.parts)) throw bad('The assistant message has no parts to answer with.');
  const answers: ChatAnswer[] = [];
  for (const raw of message.parts) {
    const part = raw as Record<string, unknown> | null;
    if (!part || typeof part !== 'object' || typeof part.type !== 'string') continue;
    if (part.type !== 'dynamic-tool' && !part.type.startsWith('tool-')) continue;
    const toolCallId = part.toolCallId;
    if (typeof toolCallId !== 'string' || toolCallId.length > 256) continue;
    // What the person saw: the call's input as the part holds it (checked against the waiting call's).
    const shown = 'input' in part && part.input !== undefined ? { input: part.input } : {};
    const approval = part.approval as { id?: unknown; approved?: unknown; reason?: unknown } | undefined;
    if (part.state === 'approval-responded' && approval && typeof approval.approved === 'boolean') {
      const incarnation = incarnationOfApproval(approval.id, toolCallId);
      const target = incarnation === undefined ? approvalTarget(approval.id) : undefined;
      const inside = target && target.toolCallId !== toolCallId ? { inside: target } : {};
      const bound = { ...shown, ...(incarnation === undefined ? {} : { incarnation }), ...inside };
      if (approval.approved) answers.push({ toolCallId, type: 'approve', ...bound });
      else {
        answers.push({
          toolCallId,
          type: 'deny',
          ...(typeof approval.reason === 'string' ? { reason: approval.reason.slice(0, 2000) } : {}),
          ...bound,
        });
      }
    } else if (part.state === 'output-available') {
      answers.push({ toolCallId, type: 'result', output: part.output, ...shown });
    } else if (part.state === 'output-error' && typeof part.errorText === 'string') {
      answers.push({ toolCallId, type: 'result', output: part.errorText, isError: true, ...shown });
    }
  }
  return answers;
}
