/**
 * The small chat page `skilltree serve` shows at `/`: plain HTML and a script without dependencies
 * that speaks the same API a `useChat` app does (POST /api/chat, the UI message stream, GET
 * /api/chat/:id to restore the chat on reload, asked only for a chat that has messages). Everything
 * the agent says is set as text, never as HTML.
 */
import { createHash } from 'node:crypto';

const STYLE = `
:root { color-scheme: light dark; --dim: #888; --line: #8884; --accent: #2563eb; }
* { box-sizing: border-box; }
body { margin: 0; font: 15px/1.5 system-ui, sans-serif; display: flex; flex-direction: column; height: 100vh; }
header { display: flex; gap: 1rem; align-items: center; padding: .6rem 1rem; border-bottom: 1px solid var(--line); }
header h1 { font-size: 1rem; margin: 0; flex: 1; }
header code { color: var(--dim); font-size: .8rem; }
main { flex: 1; overflow-y: auto; padding: 1rem; }
.msg { max-width: 48rem; margin: 0 auto .9rem; }
.msg .who { font-size: .75rem; color: var(--dim); text-transform: uppercase; letter-spacing: .05em; }
.msg.user .text { background: #2563eb18; border-radius: .5rem; padding: .4rem .7rem; display: inline-block; }
.text { white-space: pre-wrap; }
.tool { border: 1px solid var(--line); border-radius: .4rem; margin: .3rem 0; font-size: .85rem; }
.tool summary { cursor: pointer; padding: .2rem .5rem; font-family: ui-monospace, monospace; }
.tool pre { margin: 0; padding: .3rem .6rem; white-space: pre-wrap; border-top: 1px solid var(--line); }
.tool.error summary { color: #dc2626; }
.skill { font-size: .8rem; color: var(--accent); margin: .2rem 0; }
.changed { font-size: .75rem; color: var(--dim); font-family: ui-monospace, monospace; white-space: pre-wrap; }
.problem { color: #dc2626; font-size: .85rem; }
form { display: flex; gap: .5rem; padding: .7rem 1rem; border-top: 1px solid var(--line); max-width: 50rem; width: 100%; margin: 0 auto; }
input { flex: 1; font: inherit; padding: .45rem .6rem; border: 1px solid var(--line); border-radius: .4rem; }
button { font: inherit; padding: .45rem .9rem; border-radius: .4rem; border: 1px solid var(--line); cursor: pointer; }
form button { background: var(--accent); color: white; border: none; }
button:disabled { opacity: .5; }
`;

const SCRIPT = `
const api = document.body.dataset.api;
const main = document.querySelector('main');
const form = document.querySelector('form');
const input = form.querySelector('input');
const send = form.querySelector('button');
const idLabel = document.querySelector('#chat-id');
let chatId = '';
let messages = [];

function newId() {
  const bytes = crypto.getRandomValues(new Uint8Array(12));
  return Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
}
function el(tag, className, text) {
  const node = document.createElement(tag);
  if (className) node.className = className;
  if (text !== undefined) node.textContent = text;
  return node;
}
function show(value) {
  return typeof value === 'string' ? value : JSON.stringify(value, null, 1);
}
function renderPart(part) {
  if (part.type === 'text') return el('div', 'text', part.text);
  if (part.type === 'dynamic-tool' || part.type.startsWith('tool-')) {
    const name = part.toolName || part.type.slice(5);
    const box = el('details', 'tool' + (part.state === 'output-error' ? ' error' : ''));
    box.dataset.tool = name;
    box.dataset.state = part.state;
    const mark = part.state === 'output-available' ? '✓' : part.state === 'output-error' ? '✗' : '…';
    box.append(el('summary', '', mark + ' ' + name + '(' + JSON.stringify(part.input ?? {}) + ')'));
    if (part.state === 'output-available') box.append(el('pre', '', show(part.output)));
    if (part.state === 'output-error') box.append(el('pre', '', part.errorText));
    return box;
  }
  if (part.type === 'data-skill-loaded') {
    const node = el('div', 'skill', 'skill loaded: ' + part.data.name);
    node.dataset.skillLoaded = part.data.name;
    return node;
  }
  if (part.type === 'data-skill-unloaded') return el('div', 'skill', 'skill unloaded: ' + part.data.name);
  if (part.type === 'data-context-changed') return el('div', 'changed', part.data.lines.join('\\n'));
  return null;
}
function render() {
  main.replaceChildren();
  for (const message of messages) {
    const box = el('div', 'msg ' + message.role);
    box.dataset.role = message.role;
    box.append(el('div', 'who', message.role === 'user' ? 'you' : 'agent'));
    for (const part of message.parts) {
      const node = renderPart(part);
      if (node) box.append(node);
    }
    if (message.problem) box.append(el('div', 'problem', message.problem));
    main.append(box);
  }
  main.scrollTop = main.scrollHeight;
}
async function problemOf(response) {
  const text = await response.text();
  try { return JSON.parse(text).error.message; } catch { return text || response.statusText; }
}
function apply(message, chunk) {
  const parts = message.parts;
  const tool = (id) => parts.find((p) => p.toolCallId === id);
  switch (chunk.type) {
    case 'start-step': parts.push({ type: 'step-start' }); break;
    case 'text-start': parts.push({ type: 'text', text: '', id: chunk.id }); break;
    case 'text-delta': { const p = parts.find((x) => x.id === chunk.id && x.type === 'text'); if (p) p.text += chunk.delta; break; }
    case 'tool-input-available': parts.push({ type: 'dynamic-tool', toolName: chunk.toolName, toolCallId: chunk.toolCallId, state: 'input-available', input: chunk.input }); break;
    case 'tool-output-available': { const p = tool(chunk.toolCallId); if (p) { p.state = 'output-available'; p.output = chunk.output; } break; }
    case 'tool-output-error': { const p = tool(chunk.toolCallId); if (p) { p.state = 'output-error'; p.errorText = chunk.errorText; } break; }
    case 'error': message.problem = chunk.errorText; break;
    default: if (chunk.type.startsWith('data-')) parts.push({ type: chunk.type, data: chunk.data });
  }
}
// A chat's id goes in the URL (and localStorage) with its first message: a new chat is never
// asked for, so no 404 shows in the console, and a reload before the first message starts afresh.
function remember(id) {
  if (location.hash !== '#chat=' + id) location.hash = 'chat=' + id;
  localStorage.setItem('skilltree-chat', id);
}
async function load(id, fresh) {
  chatId = id;
  idLabel.textContent = id;
  messages = [];
  if (fresh) {
    if (location.hash) history.replaceState(null, '', location.pathname + location.search);
    localStorage.removeItem('skilltree-chat');
    return render();
  }
  remember(id);
  const response = await fetch(api + '/chat/' + encodeURIComponent(id));
  if (response.ok) messages = await response.json();
  else if (response.status !== 404) messages = [{ role: 'assistant', parts: [], problem: await problemOf(response) }];
  render();
}
form.addEventListener('submit', async (event) => {
  event.preventDefault();
  const text = input.value.trim();
  if (!text) return;
  input.value = '';
  send.disabled = true;
  const user = { id: newId(), role: 'user', parts: [{ type: 'text', text }] };
  const reply = { id: newId(), role: 'assistant', parts: [] };
  remember(chatId);
  messages.push(user, reply);
  render();
  try {
    const response = await fetch(api + '/chat', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ id: chatId, message: user, trigger: 'submit-message' }),
    });
    if (!response.ok) { reply.problem = await problemOf(response); return; }
    const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
    let buffer = '';
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      buffer += value;
      let end;
      while ((end = buffer.indexOf('\\n\\n')) !== -1) {
        const event = buffer.slice(0, end);
        buffer = buffer.slice(end + 2);
        const data = event.split('\\n').filter((l) => l.startsWith('data: ')).map((l) => l.slice(6)).join('\\n');
        if (!data || data === '[DONE]') continue;
        apply(reply, JSON.parse(data));
        render();
      }
    }
  } catch (error) {
    reply.problem = String(error);
  } finally {
    send.disabled = false;
    render();
    input.focus();
  }
});
document.querySelector('#new-chat').addEventListener('click', () => load(newId(), true));
const known = /chat=([A-Za-z0-9_.:@-]+)/.exec(location.hash)?.[1] || localStorage.getItem('skilltree-chat');
load(known || newId(), !known);
`;

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/** The page's Content-Security-Policy: only its own inline script (by hash) and same-origin requests. */
export const PAGE_CSP = `default-src 'none'; script-src 'sha256-${createHash('sha256').update(SCRIPT).digest('base64')}'; style-src 'unsafe-inline'; img-src data:; connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'`;

/**
 * The chat page for `title`, talking to the API under `basePath`.
 *
 * @example
 * chatPage('shop-agent.tsx', '/api'); // '<!doctype html>…'
 */
export function chatPage(title: string, basePath: string): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<link rel="icon" href="data:,">
<title>${escapeHtml(title)} · skilltree</title>
<style>${STYLE}</style>
</head>
<body data-api="${escapeHtml(basePath)}">
<header><h1>${escapeHtml(title)}</h1><code id="chat-id"></code><button id="new-chat" type="button">New chat</button></header>
<main aria-live="polite"></main>
<form><input aria-label="Message" placeholder="Message the agent" autocomplete="off" autofocus><button type="submit">Send</button></form>
<script>${SCRIPT}</script>
</body>
</html>
`;
}
