/**
 * How the page talks to `@skilltree/server`: useChat's `DefaultChatTransport`, sending only the new
 * message (the server keeps the conversation), and telling the page when a resume found no running
 * turn.
 */
import type { SkilltreeUIMessage } from '@skilltree/server';
import { DefaultChatTransport } from 'ai';

type ReconnectOptions = Parameters<DefaultChatTransport<SkilltreeUIMessage>['reconnectToStream']>[0];

/**
 * The chat transport. `GET /api/chat/:id` leaves a running turn's answer out, for
 * `GET /api/chat/:id/stream` to send; a turn that ended between the two requests is in neither, so
 * `onNothingToResume` lets the page load the chat again then.
 */
export class ChatTransport extends DefaultChatTransport<SkilltreeUIMessage> {
  readonly #onNothingToResume: () => void;

  constructor(onNothingToResume: () => void) {
    super({
      api: '/api/chat',
      // The server keeps the conversation: send only the new message (or the answered assistant message).
      prepareSendMessagesRequest: ({ id, messages }) => ({ body: { id, message: messages.at(-1) } }),
    });
    this.#onNothingToResume = onNothingToResume;
  }

  override async reconnectToStream(options: ReconnectOptions) {
    const stream = await super.reconnectToStream(options);
    if (stream === null) this.#onNothingToResume();
    return stream;
  }
}

/** Stops the chat's running turn on the server (useChat's `stop()` only closes the connection). */
export async function stopTurn(id: string): Promise<void> {
  await fetch(`/api/chat/${encodeURIComponent(id)}/stop`, { method: 'POST' });
}
