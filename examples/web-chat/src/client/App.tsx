/**
 * The page: sign in (the example's placeholder login), then chat. A chat's id goes in the URL
 * (`?chat=…`) with its first message, so a reload, or a link, opens the same conversation, restored
 * from the server, and the answer of a turn still running resumes. A new chat is not asked for: the
 * server has nothing under its id yet, and its 404 would show in the browser's console as an error.
 */
import { useEffect, useState } from 'react';
import { Chat, type ChatMessage } from './Chat.js';

function newChatId(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(12));
  return Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
}

/** The chat id in the URL: there once the chat has a message. */
function chatIdInUrl(): string | null {
  return new URL(window.location.href).searchParams.get('chat');
}

/** Puts a chat's id in the URL when its first message is sent: from then on a reload restores it. */
function rememberChat(id: string): void {
  const url = new URL(window.location.href);
  if (url.searchParams.get('chat') === id) return;
  url.searchParams.set('chat', id);
  window.history.replaceState(null, '', url);
}

/** The chat the page shows: restored from the server (`resume` then), or new. */
type Loaded = { id: string; messages: ChatMessage[]; missing: boolean; resume: boolean };

function Login({ onLogin }: { onLogin: (name: string) => void }) {
  const [name, setName] = useState('');
  const [problem, setProblem] = useState<string | null>(null);
  return (
    <form
      className="login"
      onSubmit={async (event) => {
        event.preventDefault();
        const response = await fetch('/login', {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ name }),
        });
        const body = (await response.json()) as { name?: string; error?: string };
        if (response.ok && body.name) onLogin(body.name);
        else setProblem(body.error ?? 'Could not sign in.');
      }}
    >
      <h1>skilltree web chat</h1>
      <p>A placeholder login: pick any name. A real app signs people in with its auth provider.</p>
      <input aria-label="Your name" value={name} onChange={(e) => setName(e.target.value)} />
      <button type="submit">Sign in</button>
      {problem && <p className="problem">{problem}</p>}
    </form>
  );
}

/** The whole page. */
export function App() {
  const [user, setUser] = useState<string | null | undefined>(undefined);
  const [chat, setChat] = useState<Loaded | null>(null);

  useEffect(() => {
    void fetch('/me').then(async (r) => setUser(r.ok ? ((await r.json()) as { name: string }).name : null));
  }, []);

  useEffect(() => {
    if (!user) return;
    const id = chatIdInUrl();
    if (!id) {
      setChat({ id: newChatId(), messages: [], missing: false, resume: false });
      return;
    }
    let cancelled = false;
    void fetch(`/api/chat/${encodeURIComponent(id)}`).then(async (response) => {
      const messages = response.ok ? ((await response.json()) as ChatMessage[]) : [];
      if (!cancelled) setChat({ id, messages, missing: response.status === 404, resume: response.ok });
    });
    return () => {
      cancelled = true;
    };
  }, [user]);

  if (user === undefined) return null;
  if (user === null) return <Login onLogin={setUser} />;
  return (
    <div className="page">
      <header>
        <h1>skilltree web chat</h1>
        <span className="who">
          Signed in as <b>{user}</b>
        </span>
        <button
          type="button"
          onClick={() => {
            // The new chat joins the URL with its first message; the one before stays in the history.
            window.history.pushState(null, '', window.location.pathname);
            setChat({ id: newChatId(), messages: [], missing: false, resume: false });
          }}
        >
          New chat
        </button>
        <button
          type="button"
          onClick={async () => {
            await fetch('/logout', { method: 'POST' });
            setUser(null);
            setChat(null);
          }}
        >
          Sign out
        </button>
      </header>
      {chat && (
        <Chat
          key={chat.id}
          id={chat.id}
          initialMessages={chat.messages}
          missing={chat.missing}
          resume={chat.resume}
          onSend={() => rememberChat(chat.id)}
        />
      )}
    </div>
  );
}
