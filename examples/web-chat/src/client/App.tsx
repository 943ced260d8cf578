/**
 * The page: sign in (the example's placeholder login), then chat. The chat id lives in the URL
 * (`?chat=…`), so a reload, or a link, opens the same conversation, restored from the server.
 */
import { useEffect, useState } from 'react';
import { Chat, type ChatMessage } from './Chat.js';

function newChatId(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(12));
  return Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
}

/** The chat id in the URL, or a new one put there. */
function chatIdFromUrl(): { id: string; fresh: boolean } {
  const url = new URL(window.location.href);
  const id = url.searchParams.get('chat');
  if (id) return { id, fresh: false };
  const fresh = newChatId();
  url.searchParams.set('chat', fresh);
  window.history.replaceState(null, '', url);
  return { id: fresh, fresh: true };
}

type Loaded = { id: string; messages: ChatMessage[]; missing: boolean };

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
    const { id, fresh } = chatIdFromUrl();
    if (fresh) {
      setChat({ id, messages: [], missing: false });
      return;
    }
    let cancelled = false;
    void fetch(`/api/chat/${encodeURIComponent(id)}`).then(async (response) => {
      const messages = response.ok ? ((await response.json()) as ChatMessage[]) : [];
      if (!cancelled) setChat({ id, messages, missing: response.status === 404 });
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
            const id = newChatId();
            window.history.pushState(null, '', `?chat=${id}`);
            setChat({ id, messages: [], missing: false });
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
      {chat && <Chat key={chat.id} id={chat.id} initialMessages={chat.messages} missing={chat.missing} />}
    </div>
  );
}
