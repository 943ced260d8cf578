/**
 * One chat turn as a browser's `useChat` sends it: the AI SDK's own transport and stream reader,
 * so a test of a served agent sees what a real page would.
 */
import { DefaultChatTransport, readUIMessageStream, type UIMessage } from 'ai';

/** Where and how to send the turn. */
export interface ChatTurnOptions {
  /** The chat endpoint, e.g. `http://127.0.0.1:3000/api/chat`. */
  api: string;
  chatId: string;
  text: string;
  headers?: Record<string, string>;
  /** Stands in for `fetch` (a route handler called directly). */
  fetch?: typeof fetch;
}

/** Sends `text` to chat `chatId` as one user message and resolves with the last streamed reply. */
export async function sendChatTurn<M extends UIMessage = UIMessage>(options: ChatTurnOptions): Promise<M> {
  const transport = new DefaultChatTransport<M>({
    api: options.api,
    headers: options.headers ?? {},
    fetch: options.fetch,
  });
  const stream = await transport.sendMessages({
    chatId: options.chatId,
    messages: [{ id: 'u1', role: 'user', parts: [{ type: 'text', text: options.text }] } as M],
    trigger: 'submit-message',
    messageId: undefined,
    abortSignal: undefined,
  });
  let last: M | undefined;
  for await (const message of readUIMessageStream<M>({ stream })) last = message;
  if (!last) throw new Error(`Chat ${options.chatId} at ${options.api} streamed no reply.`);
  return last;
}
