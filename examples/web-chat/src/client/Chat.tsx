/**
 * One conversation with `useChat` from `@ai-sdk/react`, talking to `@skilltree/server`. Tool calls
 * show inline as `dynamic-tool` parts, a call that needs approval with Approve and Deny; skill loads
 * and `contextChanged` lines arrive as data parts; photos go with a message as file parts. A page
 * reloaded while an answer streams resumes it (`resume`), and Stop stops the turn on the server too.
 */
import { useChat } from '@ai-sdk/react';
import type { SkilltreeUIMessage } from '@skilltree/server';
import { lastAssistantMessageIsCompleteWithApprovalResponses } from 'ai';
import { useRef, useState } from 'react';
import { type Answer, MessagePart } from './message-parts.js';
import { ChatTransport, stopTurn } from './transport.js';

/** A message of this chat (text, reasoning, files, tool parts, skilltree's data parts). */
export type ChatMessage = SkilltreeUIMessage;

/** The photos the page lets a user attach: what the server's default `files.mediaTypes` takes as images. */
const PHOTO_TYPES = 'image/png,image/jpeg,image/gif,image/webp';

/** What a denial tells the model. */
const DENIED = 'The user said no.';

/** The server's `{ error: { message } }`, or the raw text. */
function problemText(error: Error): string {
  try {
    return (JSON.parse(error.message) as { error: { message: string } }).error.message;
  } catch {
    return error.message;
  }
}

/** The conversation as the server has it now, or null when it has none for this user. */
async function loadChat(id: string): Promise<ChatMessage[] | null> {
  const response = await fetch(`/api/chat/${encodeURIComponent(id)}`);
  return response.ok ? ((await response.json()) as ChatMessage[]) : null;
}

/**
 * The conversation `id`, starting from `initialMessages` (restored from the server). `resume` asks
 * the server for a turn still running (a chat opened from the URL; a new chat has none). `onSend` is
 * called as each message is sent (the page puts the chat in the URL with the first).
 */
export function Chat({
  id,
  initialMessages,
  missing,
  resume,
  onSend,
}: {
  id: string;
  initialMessages: ChatMessage[];
  missing: boolean;
  resume: boolean;
  onSend: () => void;
}) {
  const [chatTransport] = useState(
    () =>
      new ChatTransport(() => {
        // No turn runs now; if one ran when the page loaded the chat, its answer is in the store: load it.
        if (chat.current.messages.at(-1)?.role !== 'user') return;
        void loadChat(id).then((messages) => {
          if (messages && messages.length > chat.current.messages.length) chat.current.setMessages(messages);
        });
      }),
  );
  const { messages, setMessages, sendMessage, addToolApprovalResponse, stop, status, error } = useChat<ChatMessage>({
    id,
    messages: initialMessages,
    transport: chatTransport,
    resume,
    // Once every waiting call of the last answer has an Approve or a Deny, send them.
    sendAutomaticallyWhen: lastAssistantMessageIsCompleteWithApprovalResponses,
  });
  const chat = useRef({ messages, setMessages });
  chat.current = { messages, setMessages };
  const [input, setInput] = useState('');
  const [photos, setPhotos] = useState<FileList | null>(null);
  const picker = useRef<HTMLInputElement>(null);
  const busy = status === 'submitted' || status === 'streaming';
  const answer: Answer = (approvalId, approved) =>
    void addToolApprovalResponse({ id: approvalId, approved, ...(approved ? {} : { reason: DENIED }) });

  return (
    <>
      <main aria-label="Conversation" data-status={status}>
        {missing && messages.length === 0 && (
          <p className="notice" role="status">
            There is no chat {id} for you. Send a message to start one.
          </p>
        )}
        {messages.map((message) => (
          <section key={message.id} className={`message ${message.role}`} data-role={message.role}>
            <div className="author">{message.role === 'user' ? 'You' : 'Agent'}</div>
            {message.parts.map((part, i) => (
              // biome-ignore lint/suspicious/noArrayIndexKey: parts have no ids and never reorder
              <MessagePart key={i} part={part} answer={answer} />
            ))}
          </section>
        ))}
        {error && (
          <p className="problem" role="alert">
            {problemText(error)}
          </p>
        )}
      </main>
      <form
        onSubmit={(event) => {
          event.preventDefault();
          const text = input.trim();
          const files = photos && photos.length > 0 ? photos : undefined;
          if ((!text && !files) || busy) return;
          onSend();
          // A message may be photos only: then it has no text part at all.
          void sendMessage(text ? { text, files } : { files: files as FileList });
          setInput('');
          setPhotos(null);
          if (picker.current) picker.current.value = '';
        }}
      >
        <label className="attach" title="Attach a photo">
          📎
          <input
            ref={picker}
            type="file"
            accept={PHOTO_TYPES}
            multiple
            aria-label="Attach a photo"
            onChange={(e) => setPhotos(e.target.files)}
          />
        </label>
        {photos && photos.length > 0 && (
          <span className="attached" data-attached={photos.length}>
            {Array.from(photos, (file) => file.name).join(', ')}
          </span>
        )}
        <input
          aria-label="Message"
          placeholder='Try "remember to buy milk", "convert 5 km to mi" or "refund order A-1001"'
          value={input}
          onChange={(e) => setInput(e.target.value)}
        />
        {busy ? (
          <button
            type="button"
            onClick={() => {
              // stop() closes this page's connection; the turn itself runs on until the server is told.
              void stop();
              void stopTurn(id);
            }}
          >
            Stop
          </button>
        ) : (
          <button type="submit">Send</button>
        )}
      </form>
    </>
  );
}
