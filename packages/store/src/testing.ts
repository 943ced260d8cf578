/**
 * `@skilltree/store/testing`: the conformance suite every `SessionStore` passes, for vitest. Run it
 * on your own store to check it keeps the contract `createSessions` relies on.
 *
 * @packageDocumentation
 * @example
 * // sessions-store.test.ts
 * import { memoryStore } from '@skilltree/core';
 * import { sessionStoreConformance } from '@skilltree/store/testing';
 * const store = memoryStore();
 * sessionStoreConformance('memoryStore', { open: () => store });
 */
import { createSessions, type Message, type SessionStore, type SessionsOptions } from '@skilltree/core';
import type { Commit } from '@skilltree/core/provider';
import { afterAll, beforeAll, describe, expect } from 'vitest';
import { bumpModel, counterAgent, hooks } from './fixture.js';
import { approvalTests } from './testing/approvals.js';
import { budgetTests } from './testing/budgets.js';
import { state } from './testing/chats.js';
import { deletionTests } from './testing/deletion.js';
import { fileTests } from './testing/files.js';
import { leaseTests } from './testing/leases.js';
import { manySessionsTests } from './testing/many-sessions.js';
import { ownerTests } from './testing/owners.js';
import { partTests } from './testing/parts.js';
import { recordTests } from './testing/records.js';
import { roundTripTests } from './testing/round-trips.js';
import { schemaEvolutionTests } from './testing/schema-evolution.js';
import { spendTests } from './testing/spend.js';
import { stopTests } from './testing/stops.js';
import { subagentTests } from './testing/subagents.js';
import type { ConformanceOptions, Suite } from './testing/suite.js';
import { turnTests } from './testing/turns.js';

export { checkTranscript } from './testing/check-transcript.js';
export type { ConformanceOptions } from './testing/suite.js';

/**
 * Registers the conformance suite in a vitest `describe` block: round trips (reasoning and file
 * parts byte for byte, and a turn in another process sending them as the writing one would have),
 * records written before messages had parts read upgraded, paging, the window's tail, leases and fencing, stops
 * that reach a turn in another process, deletion and the incarnations of a chat (approvals bound to them),
 * concurrent sends from several processes, a crash mid-turn, schema evolution of the agent, budgets and
 * spend, the chat's file total, subagent runs kept with their chat (deleted with it, the owner's
 * only, an approval inside a run answered in another process, once), and 1 000 sessions. Every rule is a
 * test named after it.
 */
export function sessionStoreConformance(name: string, options: ConformanceOptions): void {
  describe(`SessionStore conformance: ${name}`, { timeout: options.timeout ?? 30_000 }, () => {
    const run = `c${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;
    let n = 0;
    const opened: SessionStore[] = [];
    const open = async () => {
      const store = await options.open();
      opened.push(store);
      return store;
    };
    let a!: SessionStore;
    let b!: SessionStore;
    let c!: SessionStore;
    const commit = (store: SessionStore, id: string, partial: Partial<Commit> & { holder: string }) =>
      store.commit(id, { version: 0, epoch: 'e', append: [], state: state(), leaseTtl: 5_000, ...partial });
    const suite: Suite = {
      options,
      run,
      newId: (label) => `${run}-${label}-${++n}`,
      open,
      // The handles open in `beforeAll`, after the topics registered their tests: read them late.
      get a() {
        return a;
      },
      get b() {
        return b;
      },
      get c() {
        return c;
      },
      commit,
      seed: async (id: string, messages: Message[], store = a) => {
        expect(await store.acquire(id, 'seed', 5_000)).toBe(true);
        const version = await commit(store, id, { holder: 'seed', append: messages });
        await store.release(id, 'seed');
        return version;
      },
      sessions: (store: SessionStore, extra: SessionsOptions = {}) =>
        createSessions(counterAgent(), { store, model: bumpModel(), ...extra }),
    };

    beforeAll(async () => {
      a = await open();
      b = await open();
      c = await open();
    });
    afterAll(async () => {
      hooks.onBump = undefined;
      for (const store of opened) await store.close().catch(() => {});
    });

    // One topic a file, each test named after the rule it keeps.
    roundTripTests(suite);
    partTests(suite);
    recordTests(suite);
    leaseTests(suite);
    stopTests(suite);
    deletionTests(suite);
    approvalTests(suite);
    turnTests(suite);
    schemaEvolutionTests(suite);
    spendTests(suite);
    budgetTests(suite);
    fileTests(suite);
    ownerTests(suite);
    subagentTests(suite);
    manySessionsTests(suite);
  });
}
