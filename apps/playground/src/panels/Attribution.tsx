/**
 * What each part of the tree costs in the request (`request.attribution`), beside the request: one
 * row per part, the agent's own, the catalog, each loaded skill (its instructions, text and tools),
 * the transcript and the machinery, in tokens with a bar of its share of the whole.
 */
import { formatCount, percent } from '../format.js';
import type { RequestAttribution } from '../protocol.js';

interface Row {
  key: string;
  label: string;
  tokens: number;
  /** A loaded skill's split, shown after its total. */
  detail?: string;
}

function rowsOf(a: RequestAttribution): Row[] {
  const rows: Row[] = [
    { key: 'instructions', label: 'agent instructions', tokens: a.instructions },
    { key: 'text', label: 'agent text', tokens: a.text },
    { key: 'tools', label: 'agent tools', tokens: a.tools },
    { key: 'catalog', label: 'catalog', tokens: a.catalog },
  ];
  for (const [name, cost] of Object.entries(a.skills)) {
    rows.push({
      key: `skill:${name}`,
      label: `skill ${name}`,
      tokens: cost.total,
      detail: `instructions ${formatCount(cost.instructions)} · text ${formatCount(cost.text)} · tools ${formatCount(cost.tools)}`,
    });
  }
  rows.push(
    { key: 'transcript', label: 'transcript', tokens: a.transcript },
    { key: 'machinery', label: 'machinery', tokens: a.machinery },
  );
  // A part the tree does not have (no agent text, no tools) is left out; skills and the transcript stay.
  return rows.filter((row) => row.tokens > 0 || row.key.startsWith('skill:') || row.key === 'transcript');
}

/** The table of what each part costs; nothing when the request carries no attribution. */
export function Attribution({ attribution }: { attribution: RequestAttribution | undefined }) {
  if (!attribution) return null;
  const { total } = attribution;
  return (
    <details open className="req-section" data-testid="request-attribution">
      <summary>
        What each part costs{' '}
        <span className="muted">
          ({formatCount(total)} tokens
          {attribution.counted === 'estimate' ? ', estimated at 4 characters per token' : ''})
        </span>
      </summary>
      <table className="attribution" aria-label="What each part costs">
        <tbody>
          {rowsOf(attribution).map((row) => (
            <tr key={row.key} data-part={row.key}>
              <td>
                {row.label}
                {row.detail ? <div className="muted small">{row.detail}</div> : null}
              </td>
              <td className="num">{formatCount(row.tokens)}</td>
              <td className="num muted small">{percent(row.tokens, total)}</td>
              <td>
                <span className="bar">
                  <span
                    className="bar-fill"
                    style={{ width: `${total > 0 ? Math.round((row.tokens / total) * 100) : 0}%` }}
                  />
                </span>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </details>
  );
}
