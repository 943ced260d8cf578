/** What a turn run from the playground ends with, and the ways it is refused. */
import type { WaitingCall } from '@skilltree/core';

/** Thrown by `send` while a turn runs. */
export class BusyError extends Error {}

/** What a turn run from the playground ended with. */
export interface DevTurn {
  text: string;
  steps: number;
  /** The calls it ended waiting for (empty when none waits). */
  waiting: WaitingCall[];
}

/**
 * Core's refusals that record nothing: a file that breaks a rule, an answer to a call that does not
 * wait. Told by name: the agent module may load its own copy of core, whose classes are not ours.
 */
export function isRefusal(error: unknown): error is Error & { code: string } {
  return error instanceof Error && (error.name === 'FileRejectedError' || error.name === 'ToolAnswerError');
}
