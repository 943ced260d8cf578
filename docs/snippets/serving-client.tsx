import { useChat } from '@ai-sdk/react';
import type { SkilltreeUIMessage } from '@skilltree/server';
import { DefaultChatTransport } from 'ai';
import { useState } from 'react';

const transport = new DefaultChatTransport<SkilltreeUIMessage>({
  api: '/api/chat',
  // The server keeps the conversation: send only the new message.
  prepareSendMessagesRequest: ({ id, messages }) => ({ body: { id, message: messages.at(-1) } }),
});

/**
 * The chat the page opens with: the one in the URL (`?chat=…`, put there with its first message),
 * restored from the server; else a new one, which has nothing to load, so nothing is asked (the
 * server answers 404 for a chat it does not have, and the browser logs every 404 as an error).
 */
export async function openChat(): Promise<{ id: string; messages: SkilltreeUIMessage[] }> {
  const id = new URLSearchParams(location.search).get('chat');
  if (!id) return { id: crypto.randomUUID(), messages: [] };
  return { id, messages: await loadChat(id) };
}

/**
 * The conversation so far, for useChat's `messages` after a page reload. No chat of that id for this
 * user (a deleted one, a link to someone else's) is an empty chat: the next message starts one.
 */
export async function loadChat(id: string): Promise<SkilltreeUIMessage[]> {
  const response = await fetch(`/api/chat/${encodeURIComponent(id)}`);
  if (response.status === 404) return [];
  if (!response.ok) throw new Error(`Could not load chat ${id}: HTTP ${response.status}.`);
  return (await response.json()) as SkilltreeUIMessage[];
}

/** Puts the chat in the URL when its first message is sent: from then on, a reload restores it. */
export function rememberChat(id: string): void {
  const url = new URL(location.href);
  if (url.searchParams.get('chat') === id) return;
  url.searchParams.set('chat', id);
  history.replaceState(null, '', url);
}

function Part({ part }: { part: SkilltreeUIMessage['parts'][number] }) {
  switch (part.type) {
    case 'text':
      return <p>{part.text}</p>;
    case 'dynamic-tool':
      return (
        <pre>
          {part.toolName}({JSON.stringify(part.input)}){' '}
          {part.state === 'output-available'
            ? `→ ${part.output}`
            : part.state === 'output-error'
              ? part.errorText
              : '…'}
        </pre>
      );
    case 'data-skill-loaded':
      return <em>loaded skill {part.data.name}</em>;
    case 'data-context-changed':
      return <small>{part.data.lines.join('\n')}</small>;
    default:
      return null;
  }
}

export function Chat({ id, initialMessages }: { id: string; initialMessages: SkilltreeUIMessage[] }) {
  const { messages, sendMessage, status } = useChat<SkilltreeUIMessage>({ id, messages: initialMessages, transport });
  const [input, setInput] = useState('');
  return (
    <>
      {messages.map((message) => (
        <div key={message.id} className={message.role}>
          {message.parts.map((part, i) => (
            // biome-ignore lint/suspicious/noArrayIndexKey: parts have no ids and never move
            <Part key={i} part={part} />
          ))}
        </div>
      ))}
      <form
        onSubmit={(event) => {
          event.preventDefault();
          rememberChat(id);
          void sendMessage({ text: input });
          setInput('');
        }}
      >
        <input value={input} onChange={(e) => setInput(e.target.value)} disabled={status !== 'ready'} />
      </form>
    </>
  );
}
