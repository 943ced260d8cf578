/**
 * Timeline: one row per model step — skills loaded/unloaded, tools added/removed, context lines
 * added, the request's size and how much of it was a prefix of the previous request (what a
 * provider's prompt cache can reuse). Reloads appear between the steps.
 */
import type { ReactElement } from 'react';
import { formatBytes, percent } from '../format.js';
import type { ReloadInfo, TimelineEntry } from '../protocol.js';
import { Panel } from './Panel.js';

export interface TimelineProps {
  entries: TimelineEntry[];
  reloads: ReloadInfo[];
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
        </td>
      </tr>,
    );
  }
  for (; r < reloads.length; r++) rows.push(<ReloadRow key={`r${r}`} reload={reloads[r]} />);
  return (
    <Panel id="timeline" title="Timeline" extra={<span className="muted">{entries.length} model steps</span>}>
      {rows.length === 0 ? (
        <p className="empty">Each model step will appear here.</p>
      ) : (
        <table className="table timeline">
          <thead>
            <tr>
              <th title="turn.step">step</th>
              <th>skills</th>
              <th>tools</th>
              <th>context lines</th>
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
