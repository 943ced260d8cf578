/**
 * The state a chat engine (the AI SDK's `AbstractChat`, what `useChat` runs on) keeps, as plain
 * fields: what a page's React state would be, for tests that drive the engine without a page.
 */
import type { ChatState, ChatStatus, UIMessage } from 'ai';

/** A `ChatState` over a plain array that starts as a copy of `initial`. */
export function plainChatState<M extends UIMessage>(initial: M[] = []): ChatState<M> {
  const messages: M[] = [...initial];
  let status: ChatStatus = 'ready';
  let error: Error | undefined;
  return {
    get status() {
      return status;
    },
    set status(value) {
      status = value;
    },
    get error() {
      return error;
    },
    set error(value) {
      error = value;
    },
    get messages() {
      return messages;
    },
    set messages(value) {
      messages.splice(0, messages.length, ...value);
    },
    pushMessage: (m) => messages.push(m),
    popMessage: () => messages.pop(),
    replaceMessage: (i, m) => {
      messages[i] = m;
    },
    snapshot: (thing) => structuredClone(thing),
  };
}
