/** Small formatting helpers shared by the panels. */

export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} kB`;
  return `${(bytes / 1024 / 1024).toFixed(2)} MB`;
}

export function json(value: unknown): string {
  try {
    return JSON.stringify(value, null, 2) ?? String(value);
  } catch {
    return String(value);
  }
}

export function percent(part: number, whole: number): string {
  if (whole <= 0) return '—';
  return `${Math.round((part / whole) * 100)}%`;
}

/** A token count with thousands separators: `12,840`. */
export function formatCount(n: number | undefined): string {
  return n === undefined ? '—' : n.toLocaleString('en-US');
}

/** US dollars as the CLI's cost line writes them: `$0.0093` below a dollar, `$1.24` above. */
export function formatDollars(amount: number | null): string {
  if (amount === null) return '—';
  return `$${amount < 1 ? amount.toFixed(4) : amount.toFixed(2)}`;
}
