/**
 * Subagents: the tree of the session's subagent runs (a run inside a run under it), each with how it
 * ended, what it used, what its first request was estimated to cost before it was sent, and every
 * request its model was sent.
 */
import { formatCount, json } from '../format.js';
import type { SubagentRunView } from '../protocol.js';
import { Panel } from './Panel.js';

const tokens = (run: SubagentRunView) => (run.usage.inputTokens ?? 0) + (run.usage.outputTokens ?? 0);

function RunNode({ run, runs }: { run: SubagentRunView; runs: readonly SubagentRunView[] }) {
  const children = runs.filter((r) => r.parentRunId === run.id);
  return (
    <li data-run={run.id}>
      <details>
        <summary>
          <strong>{run.name}</strong> <span className="muted">{run.context}</span>{' '}
          <span className={`run-status run-${run.status}`}>{run.status}</span>{' '}
          <span className="muted">
            {formatCount(tokens(run))} tokens · {run.requests.length} request{run.requests.length === 1 ? '' : 's'}
          </span>
        </summary>
        {run.error ? <p className="run-error">{run.error}</p> : null}
        {run.spawn ? (
          <p className="muted small" data-spawn>
            first request, estimated before it was sent: {formatCount(run.spawn.inputTokens)} tokens,{' '}
            {formatCount(run.spawn.inheritedTokens)} inherited, {formatCount(run.spawn.cachedTokens)} cacheable
          </p>
        ) : null}
        <ol className="run-requests">
          {run.requests.map((request, i) => (
            // Requests never change once sent: their position is their identity.
            // biome-ignore lint/suspicious/noArrayIndexKey: see above
            <li key={i} data-request={i + 1}>
              <details>
                <summary>
                  request {i + 1}: {request.messages.length} messages, {request.tools.length} tools
                </summary>
                <pre className="schema">{json(request)}</pre>
              </details>
            </li>
          ))}
        </ol>
      </details>
      {children.length > 0 ? (
        <ul>
          {children.map((child) => (
            <RunNode key={child.id} run={child} runs={runs} />
          ))}
        </ul>
      ) : null}
    </li>
  );
}

export function Subagents({ runs }: { runs: readonly SubagentRunView[] }) {
  const roots = runs.filter((run) => !run.parentRunId || !runs.some((r) => r.id === run.parentRunId));
  return (
    <Panel id="subagents" title="Subagents" extra={<span className="muted">{runs.length}</span>}>
      {runs.length === 0 ? (
        <p className="empty">No subagent has run yet (a {'<Subagent>'} call starts one).</p>
      ) : (
        <ul className="tree runs">
          {roots.map((run) => (
            <RunNode key={run.id} run={run} runs={runs} />
          ))}
        </ul>
      )}
    </Panel>
  );
}
