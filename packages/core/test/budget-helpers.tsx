/**
 * What the budget tests share: the key an owner's spend is kept under, a model that
 * streams and then stalls or breaks, the size of a turn's first request, and turns of one owner
 * held in their model calls until every one was let in or refused.
 */
import { createHash } from 'node:crypto';
import type { ReactNode } from 'react';
import { expect } from 'vitest';
import {
  type Budget,
  BudgetExceededError,
  createSession,
  createSessions,
  type Model,
  type SessionStore,
  type Usage,
} from '../src/index.js';
import type { ModelStreamPart } from '../src/provider.js';
import { gate } from './gate.js';

/** The key createSessions keeps an owner's spend under: the SHA-256 of the owner, as in its chats' keys. */
export const keyOf = (owner: string) => createHash('sha256').update(owner, 'utf8').digest('hex');

/**
 * A streaming model named `name` that sends `parts`, calls `streamed`, and then waits until the call
 * is aborted (`stall`: it never finishes by itself) or fails as a broken connection (`break`).
 */
export function streamingModel(
  name: string,
  parts: ModelStreamPart[],
  streamed: () => void,
  end: 'stall' | 'break' = 'stall',
): Model {
  return {
    name,
    generate: async () => ({ text: 'never', toolCalls: [] }),
    async *stream(_req, { signal }) {
      yield* parts;
      streamed();
      if (end === 'break') throw new Error('socket hang up');
      await new Promise<void>((_, reject) => {
        const stop = () => reject(Object.assign(new Error('aborted'), { name: 'AbortError' }));
        if (signal?.aborted) stop();
        signal?.addEventListener('abort', stop, { once: true });
      });
    },
  };
}

/** The estimated input of the first request of a turn saying `text` to `app` (what a reservation holds). */
export async function firstRequestTokensOf(app: ReactNode, text: string): Promise<number> {
  const probe = createSession(app, { budget: { perTurn: { tokens: 0 } } });
  const error = (await probe.send(text).catch((e: unknown) => e)) as BudgetExceededError;
  expect(error).toBeInstanceOf(BudgetExceededError);
  return error.next;
}

/**
 * Sends `go` to `count` chats (`chat-0`, `chat-1`, …) of the owner `ann` at once, over two
 * "processes" on one store under `budget`. Their model holds every call until every turn was let
 * in or refused, so the admitted ones are all in flight at once, then answers `ok` with `usage`.
 * Resolves then, with the held calls' releases, the turns (each `null` once it ran, or the error
 * that refused it) and the two processes.
 */
export async function heldTurns(
  app: ReactNode,
  options: { store: SessionStore; count: number; budget: Budget; maxOutputTokens?: number; usage: Usage },
) {
  const { store, count, budget, maxOutputTokens, usage } = options;
  const inModel: (() => void)[] = [];
  let decided = 0;
  const all = gate();
  const decide = () => {
    if (++decided === count) all.open();
  };
  const model: Model = {
    ...(maxOutputTokens === undefined ? {} : { maxOutputTokens }),
    async generate() {
      await new Promise<void>((resolve) => {
        inModel.push(resolve);
        decide();
      });
      return { text: 'ok', toolCalls: [], usage };
    },
  };
  const processes = [createSessions(app, { store, model, budget }), createSessions(app, { store, model, budget })];
  const turns = Array.from({ length: count }, (_, i) =>
    processes[i % 2].send(`chat-${i}`, 'go', { owner: 'ann' }).then(
      () => null,
      (error: unknown) => {
        decide();
        return error;
      },
    ),
  );
  await all.opened;
  return { inModel, turns, processes };
}
