/**
 * What an engine's recovery watch finds when it looks at a pending turn of another process
 * (`DurableRegistration.look`): the turn is abandoned (take it), waits for its answers (nothing to
 * do until it is signalled), or a live process has it (or it may be about to begin). Read from the
 * chat's committed state, the engine's hints and the chat's lease.
 */
import type { AbandonedHint, DurableTurnInput, TurnLook } from '../types/engine.js';
import { resolveChat } from './chat.js';
import { leaseIsFree } from './lease.js';
import type { SessionStore } from './session-store.js';

/** Looks at pending turn `turnId` (of `input`) on `store`, with what the engine knows of it (`seen`). */
export async function lookAt(
  store: SessionStore,
  input: DurableTurnInput,
  turnId?: string,
  seen?: AbandonedHint,
): Promise<TurnLook> {
  // A turn runs (its commits say so) and its lease is free to take: the process that ran it is
  // gone. A turn that ended, or one about to take its lease, has no running turn on record.
  const chat = await resolveChat(store, input.id, input.owner ?? undefined);
  const state = chat.record?.state;
  // A turn waiting for its answers has nothing to recover until they come.
  if (turnId !== undefined && state?.wait?.turn === turnId && !seen?.signalled) return 'waiting';
  // A waiting turn that was answered (and signalled) ends wherever a process can run it.
  const answered = turnId !== undefined && state?.answered === turnId;
  // An answer whose commits are all in but whose run is pending: its process died before it
  // signalled the waiting turn. Recovered, it replays, writes nothing, and sends the signal.
  const unsignalled = input.follows !== undefined && state?.answered === input.follows.turn;
  // A turn whose process is gone for sure, though the chat does not show it running: it never
  // began (recovered, it runs its message), or ended before the engine recorded its end.
  // Or a waiting turn the engine knows was signalled: the chat may have moved on since its answer
  // (a later turn's commits no longer name it), and nothing else would ever end its workflow.
  if (state && !state.turn && !answered && !unsignalled && !seen?.unreachable && !seen?.signalled) return 'alive';
  return (await leaseIsFree(store, chat.key, 'recovery-probe')) ? 'abandoned' : 'alive';
}
