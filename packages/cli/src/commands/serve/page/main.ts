/**
 * The script of the page `skilltree serve` shows at `/` (bundled by scripts/build-page.mjs into one
 * file the page inlines). The AI SDK's chat runs the conversation (`page-chat.ts`); this file wires
 * the form, the chat id in the URL and the restore on reload, and draws (`render.ts`).
 */
import type { SkilltreeUIMessage } from '@skilltree/server';
import { PageChat } from './page-chat.js';
import { type Answer, el, renderMessage } from './render.js';

const api = document.body.dataset.api ?? '/api';
const main = document.querySelector('main')!;
const form = document.querySelector('form')!;
const input = form.querySelector('input')!;
const send = form.querySelector('button')!;
const idLabel = document.querySelector('#chat-id')!;

let chat: PageChat | undefined;
/** Why the chat could not be loaded (a refusal other than "no such chat"). */
let loadProblem = '';
let drawing = false;

function newId(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(12));
  return Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
}

/** The sentence in a refusal: the server answers `{ "error": { "message" } }`; else the text itself. */
function problemText(text: string): string {
  try {
    const message = JSON.parse(text)?.error?.message;
    if (typeof message === 'string') return message;
  } catch {}
  return text;
}

const answer: Answer = (approvalId, approved) => {
  void chat?.addToolApprovalResponse({ id: approvalId, approved });
};

function draw(): void {
  drawing = false;
  if (!chat) return;
  main.replaceChildren(...chat.messages.map((message) => renderMessage(message, answer)));
  const problem = chat.error ? problemText(chat.error.message) : loadProblem;
  if (problem) main.append(el('div', 'problem', problem));
  send.disabled = chat.status === 'submitted' || chat.status === 'streaming';
  main.scrollTop = main.scrollHeight;
}

/** Draws once for the changes of one task (a chunk can change the state several times). */
function changed(of: PageChat): void {
  if (of !== chat || drawing) return;
  drawing = true;
  queueMicrotask(draw);
}

// A chat's id goes in the URL (and localStorage) with its first message: a new chat is never
// asked for, so no 404 shows in the console, and a reload before the first message starts afresh.
function remember(id: string): void {
  if (location.hash !== `#chat=${id}`) location.hash = `chat=${id}`;
  localStorage.setItem('skilltree-chat', id);
}

function open(id: string, messages: SkilltreeUIMessage[]): void {
  const next: PageChat = new PageChat({ id, messages, api, onChange: () => changed(next) });
  chat = next;
  idLabel.textContent = id;
  draw();
}

async function load(id: string, fresh: boolean): Promise<void> {
  loadProblem = '';
  if (fresh) {
    if (location.hash) history.replaceState(null, '', location.pathname + location.search);
    localStorage.removeItem('skilltree-chat');
    return open(id, []);
  }
  remember(id);
  idLabel.textContent = id;
  let messages: SkilltreeUIMessage[] = [];
  try {
    const response = await fetch(`${api}/chat/${encodeURIComponent(id)}`);
    if (response.ok) messages = await response.json();
    else if (response.status !== 404) loadProblem = problemText(await response.text());
  } catch (error) {
    loadProblem = String(error);
  }
  open(id, messages);
}

form.addEventListener('submit', (event) => {
  event.preventDefault();
  const text = input.value.trim();
  if (!text || !chat) return;
  input.value = '';
  loadProblem = '';
  remember(chat.id);
  // Errors land in the chat's state (shown by draw); the page waits for nothing here.
  void chat.sendMessage({ text }).finally(() => input.focus());
});
document.querySelector('#new-chat')!.addEventListener('click', () => void load(newId(), true));
const known = /chat=([A-Za-z0-9_.:@-]+)/.exec(location.hash)?.[1] || localStorage.getItem('skilltree-chat');
void load(known || newId(), !known);
