/**
 * `@skilltree/durable`: durable turns for `createSessions(…, { engine })`. Each engine has its own
 * entry point, so an app loads only the SDK it uses: `@skilltree/durable/dbos` (DBOS Transact on
 * PostgreSQL) and `@skilltree/durable/restate` (a Restate server). `@skilltree/durable/testing`
 * holds the conformance suite every engine passes. This entry re-exports what they share: the
 * engine interface (from core's provider face) and the error a turn that does not replay stops with.
 */

export { DurableReplayError } from '@skilltree/core';
export type {
  AbandonedHint,
  DurableRegistration,
  DurableTurnInput,
  DurableTurnRunner,
  LeaseHold,
  TurnEngine,
  TurnLook,
} from '@skilltree/core/provider';
