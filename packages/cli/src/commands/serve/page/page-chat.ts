/**
 * The served page's chat: the AI SDK's own `AbstractChat` (the state machine `useChat` runs on)
 * with its own `DefaultChatTransport`, over a plain state object that tells the page when to draw.
 * The page keeps no reducer of the UI message stream: every chunk is applied by the AI SDK, so a
 * chunk kind the SDK adds is shown the way `useChat` shows it.
 */
import type { SkilltreeUIMessage } from '@skilltree/server';
import {
  AbstractChat,
  type ChatState,
  type ChatStatus,
  DefaultChatTransport,
  lastAssistantMessageIsCompleteWithApprovalResponses,
} from 'ai';

/** A `ChatState` without a framework: plain fields, and `onChange` after every change of one. */
class PageChatState implements ChatState<SkilltreeUIMessage> {
  messages: SkilltreeUIMessage[];
  #status: ChatStatus = 'ready';
  #error: Error | undefined;

  constructor(
    messages: SkilltreeUIMessage[],
    private readonly onChange: () => void,
  ) {
    this.messages = messages;
  }

  get status(): ChatStatus {
    return this.#status;
  }

  set status(status: ChatStatus) {
    this.#status = status;
    this.onChange();
  }

  get error(): Error | undefined {
    return this.#error;
  }

  set error(error: Error | undefined) {
    this.#error = error;
    this.onChange();
  }

  pushMessage = (message: SkilltreeUIMessage) => {
    this.messages = [...this.messages, message];
    this.onChange();
  };

  popMessage = () => {
    this.messages = this.messages.slice(0, -1);
    this.onChange();
  };

  replaceMessage = (index: number, message: SkilltreeUIMessage) => {
    // A copy, as useChat's state takes one: the SDK goes on writing into the message it streams.
    this.messages = [...this.messages.slice(0, index), this.snapshot(message), ...this.messages.slice(index + 1)];
    this.onChange();
  };

  snapshot = <T>(thing: T): T => structuredClone(thing);
}

/** What a {@link PageChat} needs. */
export interface PageChatOptions {
  /** The chat's id (the server's chat id). */
  id: string;
  /** The conversation so far (`GET /api/chat/:id`), or none for a new chat. */
  messages: SkilltreeUIMessage[];
  /** Where the API is (`/api`): the chat posts to `${api}/chat`. */
  api: string;
  /** Called after every change of messages, status or error. */
  onChange: () => void;
}

/** One chat on the page, run by the AI SDK. */
export class PageChat extends AbstractChat<SkilltreeUIMessage> {
  constructor({ id, messages, api, onChange }: PageChatOptions) {
    const state = new PageChatState(messages, onChange);
    super({
      id,
      state,
      transport: new DefaultChatTransport<SkilltreeUIMessage>({
        api: `${api}/chat`,
        // The server keeps the conversation: send only the new message (or the answered assistant one).
        prepareSendMessagesRequest: ({ id, messages }) => ({ body: { id, message: messages.at(-1) } }),
      }),
      // Once every waiting call of the last answer has an Approve or a Deny, send them.
      sendAutomaticallyWhen: lastAssistantMessageIsCompleteWithApprovalResponses,
    });
  }
}
