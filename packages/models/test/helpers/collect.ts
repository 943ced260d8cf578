import type { ModelStreamPart } from '@skilltree/core/provider';
import { expect } from 'vitest';

/** Collects an async iterable into an array, every item. */
export async function collectAll<T>(iterable: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const item of iterable) out.push(item);
  return out;
}

/**
 * Collects a stream's parts into an array, without its `tool-input-delta` parts: those only let the
 * session count a call cut off mid-input (see the tests named after that rule, which read them with
 * {@link collectAll}); what a stream says is the rest.
 */
export async function collect<T>(iterable: AsyncIterable<T>): Promise<T[]> {
  return (await collectAll(iterable)).filter((item) => (item as { type?: unknown })?.type !== 'tool-input-delta');
}

/** Runs `fn` with environment variables set (undefined deletes), restoring them afterwards. */
export async function withEnv<T>(vars: Record<string, string | undefined>, fn: () => Promise<T>): Promise<T> {
  const saved: Record<string, string | undefined> = {};
  for (const [k, v] of Object.entries(vars)) {
    saved[k] = process.env[k];
    if (v === undefined) delete process.env[k];
    else process.env[k] = v;
  }
  try {
    return await fn();
  } finally {
    for (const [k, v] of Object.entries(saved)) {
      if (v === undefined) delete process.env[k];
      else process.env[k] = v;
    }
  }
}

/**
 * The text of a stream's `tool-input-delta` parts, joined, once the first of them is seen to come
 * before the first `tool-call` (so a call cut off mid-input is charged what it streamed).
 */
export function inputStreamedBeforeCall(parts: readonly ModelStreamPart[]): string {
  expect(parts.findIndex((p) => p.type === 'tool-input-delta')).toBeLessThan(
    parts.findIndex((p) => p.type === 'tool-call'),
  );
  return parts.flatMap((p) => (p.type === 'tool-input-delta' ? [p.text] : [])).join('');
}
