/**
 * One conversation with `useChat` from `@ai-sdk/react`, talking to `@skilltree/server`. The model's
 * reasoning shows as `reasoning` parts (its readable text only), tool calls inline as `dynamic-tool`
 * parts; skill loads and `contextChanged` lines arrive as data parts.
 */
import { useChat } from '@ai-sdk/react';
import type { SkilltreeUIMessage } from '@skilltree/server';
import { DefaultChatTransport } from 'ai';
import { useMemo, useState } from 'react';

/** A message of this chat (text, tool parts, skilltree's data parts). */
export type ChatMessage = SkilltreeUIMessage;
type Part = ChatMessage['parts'][number];

/** The server keeps the conversation: send only the new message, not the whole history. */
function transport() {
  return new DefaultChatTransport<ChatMessage>({
    api: '/api/chat',
    prepareSendMessagesRequest: ({ id, messages }) => ({ body: { id, message: messages.at(-1) } }),
  });
}

/** The server's `{ error: { message } }`, or the raw text. */
function problemText(error: Error): string {
  try {
    return (JSON.parse(error.message) as { error: { message: string } }).error.message;
  } catch {
    return error.message;
  }
}

function ToolPart({ part }: { part: Extract<Part, { type: 'dynamic-tool' }> }) {
  const mark = part.state === 'output-available' ? '✓' : part.state === 'output-error' ? '✗' : '…';
  return (
    <details className={`tool ${part.state}`} data-tool={part.toolName} data-state={part.state}>
      <summary>
        {mark} {part.toolName}({JSON.stringify(part.input ?? {})})
      </summary>
      {part.state === 'output-available' && <pre>{String(part.output)}</pre>}
      {part.state === 'output-error' && <pre>{part.errorText}</pre>}
    </details>
  );
}

function MessagePart({ part }: { part: Part }) {
  switch (part.type) {
    case 'text':
      return <div className="text">{part.text}</div>;
    case 'reasoning':
      return (
        <details className="reasoning" data-reasoning open>
          <summary>{part.state === 'streaming' ? 'Thinking…' : 'Thought'}</summary>
          <div>{part.text}</div>
        </details>
      );
    case 'dynamic-tool':
      return <ToolPart part={part} />;
    case 'data-skill-loaded':
      return (
        <div className="skill" data-skill-loaded={part.data.name}>
          loaded skill <b>{part.data.name}</b>
        </div>
      );
    case 'data-skill-unloaded':
      return (
        <div className="skill" data-skill-unloaded={part.data.name}>
          unloaded skill <b>{part.data.name}</b>
        </div>
      );
    case 'data-context-changed':
      return <div className="changed">{part.data.lines.join('\n')}</div>;
    default:
      return null;
  }
}

/**
 * The conversation `id`, starting from `initialMessages` (restored from the server). `onSend` is
 * called as each message is sent (the page puts the chat in the URL with the first).
 */
export function Chat({
  id,
  initialMessages,
  missing,
  onSend,
}: {
  id: string;
  initialMessages: ChatMessage[];
  missing: boolean;
  onSend: () => void;
}) {
  const chatTransport = useMemo(transport, []);
  const { messages, sendMessage, status, error } = useChat<ChatMessage>({
    id,
    messages: initialMessages,
    transport: chatTransport,
  });
  const [input, setInput] = useState('');
  const busy = status === 'submitted' || status === 'streaming';
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
              <MessagePart key={i} part={part} />
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
          if (!text || busy) return;
          onSend();
          void sendMessage({ text });
          setInput('');
        }}
      >
        <input
          aria-label="Message"
          placeholder='Try "remember to buy milk" or "convert 5 km to mi"'
          value={input}
          onChange={(e) => setInput(e.target.value)}
        />
        <button type="submit" disabled={busy}>
          Send
        </button>
      </form>
    </>
  );
}
