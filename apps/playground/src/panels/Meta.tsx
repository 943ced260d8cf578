/**
 * A skill's or a tool's `meta` prop as key/value chips: whatever an integration puts there (a folder
 * skill's files and warnings, an MCP tool's server and connection state) shows up without the
 * playground knowing its shape. `meta` is for inspectors only; the model never sees it.
 */

/** One value as short text: lists joined, objects as one-line JSON, empty lists as a dash. */
export function metaText(value: unknown): string {
  if (value === null || value === undefined) return '—';
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  if (Array.isArray(value)) {
    if (value.length === 0) return '—';
    return value
      .map((item) => (item !== null && typeof item === 'object' ? JSON.stringify(item) : String(item)))
      .join(', ');
  }
  return JSON.stringify(value);
}

/** Longer values are cut in the chip; the full text is in its tooltip. */
const MAX = 80;

export function Meta({ meta, label }: { meta: Record<string, unknown> | undefined; label: string }) {
  const entries = Object.entries(meta ?? {});
  if (entries.length === 0) return null;
  return (
    <ul className="meta-chips" aria-label={label}>
      {entries.map(([key, value]) => {
        const text = metaText(value);
        return (
          <li key={key} className="meta-chip" data-meta={key} title={`${key}: ${text}`}>
            <span className="meta-key">{key}</span>
            <span className="meta-value">{text.length > MAX ? `${text.slice(0, MAX - 1)}…` : text}</span>
          </li>
        );
      })}
    </ul>
  );
}
