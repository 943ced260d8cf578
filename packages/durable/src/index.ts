/**
 * `@skilltree/durable`: durable turns for `createSessions(…, { engine })`. The engines live in
 * their own entry points, so an app loads only the SDK it uses: `@skilltree/durable/dbos` (DBOS
 * Transact on PostgreSQL) and `@skilltree/durable/restate` (a Restate server). This entry holds
 * what they share: the engine interface (re-exported from core) and `memoryEngine`, an engine that
 * records steps in memory (tests, and a reference for writing an engine).
 */

export { DurableReplayError } from '@skilltree/core';
export type { DurableRegistration, DurableTurnInput, DurableTurnRunner, TurnEngine } from '@skilltree/core/provider';
