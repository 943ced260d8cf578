/**
 * Timeline: one row per model step — skills loaded/unloaded, tools added/removed, context lines
 * added, the model's reasoning, the request's size and how much of it was a prefix of the previous
 * request (what a provider's prompt cache can reuse), with the first path where it changed. For a
 * model that binds its reasoning to the prefix (an append-only request) a change there is flagged:
 * the provider refuses it or drops the reasoning after it. Reloads appear between the steps.
 */
import type { ReactElement } from 'react';
import { formatBytes, percent } from '../format.js';
import type { ReloadInfo, TimelineEntry } from '../protocol.js';
import { Panel } from './Panel.js';

export interface TimelineProps {
  entries: TimelineEntry[];
  reloads: ReloadInfo[];
}

/** Where the request changed the previous one's prefix: a warning for append-only requests. */
function PrefixChangeView({ entry }: { entry: TimelineEntry }) {
  const change = entry.prefixChange;
  if (!change) return null;
  if (change.appendOnly) {
    return (
      <div
        className="prefix-change warn small"
        data-prefix-change={change.path}
        title={
          entry.step === 1
            ? 'At the start of a turn core may move an append-only window (a new prefix; reasoning before it is not sent). Anywhere else the provider refuses the change or drops the reasoning after it.'
            : 'The model binds its reasoning to the exact prefix: the provider refuses this change or drops the reasoning after it.'
        }
      >
        ⚠ the request changed at {change.path}
      </div>
    );
  }
  return (
    <div className="prefix-change muted small" data-prefix-change={change.path} title="The prompt cache stops here">
      changed at {change.path}
    </div>
  );
}

/** The step's reasoning: how much there was, the text on hover. */
function ReasoningCell({ reasoning }: { reasoning: string[] }) {
  if (reasoning.length === 0) return null;
  const text = reasoning.filter(Boolean).join('\n\n');
  return (
    <div className="muted small sample" data-reasoning title={text || 'hidden by the provider'}>
      reasoning: {text ? text : 'hidden by the provider'}
    </div>
  );
}

function List({ items, sign, cls }: { items: string[]; sign: string; cls: string }) {
  if (items.length === 0) return null;
  return (
    <span className={`${cls} pills`}>
      {items.map((item) => (
        <span key={item} className="pill">
          {sign}
          {item}
        </span>
      ))}
    </span>
  );
}

export function Timeline({ entries, reloads }: TimelineProps) {
  const changed = entries.filter((entry) => entry.prefixChange?.appendOnly).length;
  const rows: ReactElement[] = [];
  let r = 0;
  for (const [i, entry] of entries.entries()) {
    while (r < reloads.length && reloads[r].at <= entry.at) {
      rows.push(<ReloadRow key={`r${r}`} reload={reloads[r]} />);
      r++;
    }
    const ratio = i === 0 ? 0 : entry.prefixBytes / Math.max(1, entry.bytes);
    rows.push(
      <tr key={`e${i}`} data-step={`${entry.turn}.${entry.step}`}>
        <td className="num">
          {entry.turn}.{entry.step}
        </td>
        <td>
          <List items={entry.loaded} sign="+" cls="added" />
          <List items={entry.unloaded} sign="−" cls="removed" />
        </td>
        <td>
          <List items={entry.toolsAdded} sign="+" cls="added" />
          <List items={entry.toolsRemoved} sign="−" cls="removed" />
        </td>
        <td title={entry.lineSamples.join('\n')}>
          {entry.linesAdded > 0 ? <span className="added">+{entry.linesAdded}</span> : null}
          {entry.linesRemoved > 0 ? <span className="removed"> −{entry.linesRemoved}</span> : null}
          {entry.lineSamples.length > 0 ? <div className="muted small sample">{entry.lineSamples[0]}</div> : null}
          <ReasoningCell reasoning={entry.reasoning} />
        </td>
        <td className="num">{formatBytes(entry.bytes)}</td>
        <td className="num">
          {i === 0 ? (
            <span className="muted">first</span>
          ) : (
            <span title={`${entry.prefixBytes} of ${entry.bytes} bytes are a prefix of the previous request`}>
              <span className="bar">
                <span className="bar-fill" style={{ width: `${Math.round(ratio * 100)}%` }} />
              </span>{' '}
              {percent(entry.prefixBytes, entry.bytes)}
            </span>
          )}
          <PrefixChangeView entry={entry} />
        </td>
      </tr>,
    );
  }
  for (; r < reloads.length; r++) rows.push(<ReloadRow key={`r${r}`} reload={reloads[r]} />);
  return (
    <Panel
      id="timeline"
      title="Timeline"
      extra={
        <span className="muted">
          {entries.length} model steps
          {entries.some((entry) => entry.appendOnly) ? ' · append-only requests' : ''}
          {changed > 0 ? (
            <span className="warn" data-prefix-changes={changed}>
              {' '}
              · ⚠ {changed} append-only prefix {changed === 1 ? 'change' : 'changes'}
            </span>
          ) : null}
        </span>
      }
    >
      {rows.length === 0 ? (
        <p className="empty">Each model step will appear here.</p>
      ) : (
        <table className="table timeline">
          <thead>
            <tr>
              <th title="turn.step">step</th>
              <th>skills</th>
              <th>tools</th>
              <th title="Context lines added and removed; the reasoning the model returned">context · reasoning</th>
              <th>bytes</th>
              <th title="Share of the request identical to the start of the previous one">prefix</th>
            </tr>
          </thead>
          <tbody>{rows}</tbody>
        </table>
      )}
    </Panel>
  );
}

function ReloadRow({ reload }: { reload: ReloadInfo }) {
  return (
    <tr className="reload-row">
      <td colSpan={6}>
        ↻ reload #{reload.generation - 1}
        {reload.files.length > 0 ? ` (${reload.files.join(', ')})` : ''}: {reload.changes.join('; ')}
      </td>
    </tr>
  );
}
