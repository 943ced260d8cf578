import { useChat } from '@ai-sdk/react';
import type { SkilltreeUIMessage } from '@skilltree/server';
import { DefaultChatTransport } from 'ai';
import { useState } from 'react';

const transport = new DefaultChatTransport<SkilltreeUIMessage>({
  api: '/api/chat',
  // The server keeps the conversation: send only the new message.
  prepareSendMessagesRequest: ({ id, messages }) => ({ body: { id, message: messages.at(-1) } }),
});

/** The conversation so far, for useChat's `messages` after a page reload. */
export async function loadChat(id: string): Promise<SkilltreeUIMessage[]> {
  const response = await fetch(`/api/chat/${encodeURIComponent(id)}`);
  return response.ok ? ((await response.json()) as SkilltreeUIMessage[]) : [];
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
          void sendMessage({ text: input });
          setInput('');
        }}
      >
        <input value={input} onChange={(e) => setInput(e.target.value)} disabled={status !== 'ready'} />
      </form>
    </>
  );
}
