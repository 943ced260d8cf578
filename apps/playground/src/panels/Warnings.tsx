/**
 * The session's warnings (`session.warn`, skills that could not be kept on a reload, integrations
 * reporting trouble), as a banner above the panels: they do not stop the agent, so they must not
 * hide either.
 */
import type { Warning } from '../protocol.js';

export function Warnings({ warnings }: { warnings: Warning[] }) {
  if (warnings.length === 0) return null;
  return (
    <div className="banner banner-warn warnings" role="status" aria-label="Session warnings">
      <strong>
        ⚠ {warnings.length} {warnings.length === 1 ? 'warning' : 'warnings'} from the session
      </strong>
      <ul>
        {warnings.map((warning, i) => (
          // biome-ignore lint/suspicious/noArrayIndexKey: warnings are only appended
          <li key={i} data-warning-source={warning.source ?? ''}>
            {warning.source ? <code>{warning.source}</code> : null} {warning.message}
          </li>
        ))}
      </ul>
    </div>
  );
}
