/** Small formatting helpers shared by the panels. */
import { CONTEXT_CHANGED } from './constants.js';

/** Splits a message's text into its own text and the `contextChanged` lines the runtime appended. */
export function splitContextChanged(content: string): { text: string; changes: string[] } {
  const lines = content.split('\n');
  const changes: string[] = [];
  const rest: string[] = [];
  for (const line of lines) {
    if (line.startsWith(CONTEXT_CHANGED)) changes.push(line);
    else rest.push(line);
  }
  return { text: rest.join('\n').trimEnd(), changes };
}

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
