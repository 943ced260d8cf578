/**
 * The playground: Chat on the left, the Request, Timeline and Cost in the middle, Skills, Stores,
 * Subagents and the Tree on the right. Errors (module, model, connection) are banners: the page is never blank.
 */
import { useEffect, useState } from 'react';
import { Chat } from './panels/Chat.js';
import { Cost } from './panels/Cost.js';
import { Request } from './panels/Request.js';
import { Skills } from './panels/Skills.js';
import { Stores } from './panels/Stores.js';
import { Subagents } from './panels/Subagents.js';
import { Timeline } from './panels/Timeline.js';
import { Tree } from './panels/Tree.js';
import { Warnings } from './panels/Warnings.js';
import { ReportPage } from './report/ReportPage.js';
import { type DevServer, useDevServer } from './useDevServer.js';

/** The page: the playground, or the eval report page at `#report`. */
export function Root() {
  const [hash, setHash] = useState(() => location.hash);
  useEffect(() => {
    const changed = () => setHash(location.hash);
    addEventListener('hashchange', changed);
    return () => removeEventListener('hashchange', changed);
  }, []);
  return hash.startsWith('#report') ? <ReportPage /> : <App />;
}

export function App({ base = '' }: { base?: string }) {
  return <Playground server={useDevServer(base)} />;
}

export function Playground({ server }: { server: DevServer }) {
  const { state, connection, streaming, sending, actionError } = server;
  const [dismissedReload, setDismissedReload] = useState(0);
  const lastReload = state?.reloads.at(-1);
  const moduleName = state?.module.split(/[\\/]/).pop() ?? '';

  return (
    <div className="app">
      <header className="topbar">
        <h1>
          skilltree <span className="muted">playground</span>
        </h1>
        {state ? (
          <div className="meta">
            <span title={state.module}>
              agent <code>{moduleName}</code>
            </span>
            <span>
              model <code className={state.model === 'none' ? 'warn' : ''}>{state.model}</code>
            </span>
            <span>
              code <code>v{state.generation}</code>
            </span>
            <span className={`status ${state.busy ? 'busy' : 'idle'}`}>{state.busy ? '● working' : '○ idle'}</span>
          </div>
        ) : null}
        <a href="#report" className="muted small" title="Open an eval report (JSON) from skilltree eval --report">
          eval report
        </a>
        <span className={`conn conn-${connection}`}>
          {connection === 'open' ? 'live' : connection === 'connecting' ? 'connecting…' : 'disconnected'}
        </span>
      </header>
      <div className="banners">
        {connection === 'lost' ? (
          <div className="banner banner-warn" role="alert">
            Lost the connection to <code>skilltree dev</code>. Is it still running? Retrying…
          </div>
        ) : null}
        {state?.loadError ? (
          <div className="banner banner-error" role="alert">
            <strong>Agent error:</strong> {state.loadError}
            {state.transcript.length > 0 || state.request ? ' — still running the last good code.' : ''}
          </div>
        ) : null}
        {state?.error ? (
          <div className="banner banner-error" role="alert">
            <strong>Model error:</strong> {state.error}
          </div>
        ) : null}
        {state?.model === 'none' ? (
          <div className="banner banner-warn">
            No model: pass <code>--model</code> to <code>skilltree dev</code>, or export <code>demo</code> with a
            scripted model from the agent module.
          </div>
        ) : null}
        {actionError ? (
          <div className="banner banner-error" role="alert">
            {actionError}{' '}
            <button type="button" className="ghost" onClick={server.dismissError}>
              dismiss
            </button>
          </div>
        ) : null}
        {state ? <Warnings warnings={state.view?.warnings ?? []} /> : null}
        {lastReload && lastReload.generation > dismissedReload ? (
          <div className="banner banner-ok" role="status">
            ↻ Reloaded{lastReload.files.length > 0 ? ` ${lastReload.files.join(', ')}` : ''} — conversation kept (
            {lastReload.transcriptLength} messages): {lastReload.changes.join('; ')}{' '}
            <button type="button" className="ghost" onClick={() => setDismissedReload(lastReload.generation)}>
              ×
            </button>
          </div>
        ) : null}
      </div>
      {state ? (
        <main className="grid">
          <div className="col col-chat">
            <Chat
              transcript={state.transcript}
              notes={state.notes}
              streaming={streaming}
              busy={state.busy || sending}
              windowStart={state.windowStart}
              demoMessages={state.demoMessages}
              scripted={state.scripted}
              disabled={!state.request && !!state.loadError}
              waiting={state.waiting ?? []}
              onSend={(text, files) => server.send(text, files)}
              onAnswer={(answers) => void server.answer(answers)}
              onReset={() => void server.reset()}
            />
          </div>
          <div className="col col-request">
            <Request
              request={state.request}
              requestError={state.requestError}
              transcript={state.transcript}
              windowStart={state.windowStart}
              config={state.view?.config ?? null}
              placed={state.placed}
            />
            <Timeline entries={state.timeline} reloads={state.reloads} />
            <Cost cost={state.cost} model={state.model} />
          </div>
          <div className="col col-side">
            <Skills view={state.view} />
            <Stores stores={state.view?.stores ?? {}} />
            <Subagents runs={state.subagentRuns ?? []} />
            <Tree view={state.view} />
          </div>
        </main>
      ) : (
        <main className="waiting">
          {connection === 'lost' ? (
            <p>
              Cannot reach <code>skilltree dev</code>. Start it with <code>skilltree dev ./agent.tsx</code>, then reload
              this page.
            </p>
          ) : (
            <p>Connecting to skilltree dev…</p>
          )}
        </main>
      )}
    </div>
  );
}
