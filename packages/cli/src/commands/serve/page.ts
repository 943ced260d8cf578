/**
 * The small chat page `skilltree serve` shows at `/`: plain HTML and one inline script, the bundle
 * of `./page/` (the AI SDK's own chat client, `AbstractChat` with `DefaultChatTransport`, and a
 * renderer of its `UIMessage` parts). It speaks the same API a `useChat` app does (POST /api/chat,
 * the UI message stream, GET /api/chat/:id to restore the chat on reload, asked only for a chat that
 * has messages). Everything the agent says is set as text, never as HTML.
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { CliError, errorMessage } from '../../kit/errors.js';

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
.reasoning { font-size: .85rem; color: var(--dim); font-style: italic; white-space: pre-wrap; }
.approval { display: flex; gap: .5rem; align-items: center; padding: .3rem .6rem; border-top: 1px solid var(--line); }
.changed { font-size: .75rem; color: var(--dim); font-family: ui-monospace, monospace; white-space: pre-wrap; }
.problem { color: #dc2626; font-size: .85rem; }
form { display: flex; gap: .5rem; padding: .7rem 1rem; border-top: 1px solid var(--line); max-width: 50rem; width: 100%; margin: 0 auto; }
input { flex: 1; font: inherit; padding: .45rem .6rem; border: 1px solid var(--line); border-radius: .4rem; }
button { font: inherit; padding: .45rem .9rem; border-radius: .4rem; border: 1px solid var(--line); cursor: pointer; }
form button { background: var(--accent); color: white; border: none; }
button:disabled { opacity: .5; }
`;

/** Where the build puts the page's script (scripts/build-page.mjs), beside this file in dist. */
const SCRIPT_FILE = new URL('./page-script.js', import.meta.url);

/** The page's script: the bundle of `./page/main.ts`, read once. */
let script: string | undefined;

function pageScript(): string {
  if (script === undefined) {
    try {
      script = readFileSync(SCRIPT_FILE, 'utf8');
    } catch (error) {
      throw new CliError(
        `The chat page's script is missing (${fileURLToPath(SCRIPT_FILE)}: ${errorMessage(error)}). Build @skilltree/cli (pnpm build), or pass --no-page.`,
      );
    }
  }
  return script;
}

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/** The page's Content-Security-Policy: only its own inline script (by hash) and same-origin requests. */
export function pageCsp(): string {
  const hash = createHash('sha256').update(pageScript()).digest('base64');
  return `default-src 'none'; script-src 'sha256-${hash}'; style-src 'unsafe-inline'; img-src data:; connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'`;
}

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
<script>${pageScript()}</script>
</body>
</html>
`;
}
