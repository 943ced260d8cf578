/**
 * Subagent runs as Restate child invocations (`TurnEngine.child`, served as `child-steps.ts`
 * says). The turn sends the child to its own service's `subagent` handler (journaled where the
 * turn opens the run, with the child's id as idempotency key), so the child runs where the turn
 * runs: on the same deployment, moved with it when its process dies. The child's handler records
 * the run's steps with `ctx.run` in its own journal; a retried child replays them as the
 * re-mounted run asks for them again, and runs live from the first it did not record.
 *
 * A child stays open until its turn has completed on the server: a turn that replays (its process
 * died, or it resumed after a suspension) always finds its children open.
 */
import type * as Restate from '@restatedev/restate-sdk';
import type { ChildWorkflow } from '@skilltree/core/provider';
import { childSteps, refusedChild } from './child-steps.js';
import { invocationKey, invocationPending, killInvocation } from './restate-admin.js';

/** What the `subagent` handler is called with. */
export interface ChildRequest {
  /** The child's id (`<turn id>/sub/<toolCallId>`), its idempotency key. */
  childId: string;
  turnId: string;
  /** The turn's invocation, whose completion ends the child. */
  turnInvocation: string;
}

/** How the engine records a step on an invocation, and sends a child to its service. */
export interface RestateChildOps {
  step(ctx: Restate.Context, name: string, fn: () => Promise<unknown>): Promise<unknown>;
  send(ctx: Restate.Context, service: string, request: ChildRequest): void;
  /** The error that ends an invocation for good. */
  terminal(message: string): Error;
}

/** The child invocations of one engine in this process. */
export function restateChildren(admin: string, ops: RestateChildOps) {
  const steps = childSteps();

  return {
    /** The `subagent` handler of service `service`: serves child `request` until its turn completed. */
    async serve(ctx: Restate.Context, service: string, request: ChildRequest): Promise<null> {
      const { childId, turnId, turnInvocation } = request ?? {};
      // An invocation sent past the turn (its own key, or none) serves nothing: it ends for good.
      // (The SDK does not show a key a handler sent its call with: the server says which it was.)
      const key = ctx.request().idempotencyKey ?? (await invocationKey(admin, ctx.request().id));
      const refused =
        refusedChild(childId, turnId, key) ??
        (typeof turnInvocation === 'string' ? null : 'a subagent child was started without its turn invocation');
      if (refused) throw ops.terminal(`restateEngine: ${refused}.`);
      // Retried after its turn completed: no run will ask it for anything, and its journal may
      // hold steps an early return would not replay, so it is ended for good.
      if (!steps.endedHere(turnId) && !(await invocationPending(admin, turnInvocation, turnId))) {
        await killInvocation(admin, ctx.request().id);
        throw ops.terminal(`The turn of subagent child ${childId} has completed.`);
      }
      steps.attach(childId, turnId, {
        step: (name, fn) => ops.step(ctx, name, fn),
        start: async (id) => ops.send(ctx, service, { childId: id, turnId, turnInvocation }),
      });
      await steps.turnOver(turnId, () => invocationPending(admin, turnInvocation, turnId));
      // Forgotten only when it ends: an attempt the server cut short is followed by another.
      steps.forget(childId);
      return null;
    },
    /** Inside running turn `turnId` (invocation `ctx` of `service`): opens the child of run `name`. */
    open(ctx: Restate.Context, service: string, turnId: string, name: string): ChildWorkflow {
      const childId = `${turnId}/${name}`;
      ops.send(ctx, service, { childId, turnId, turnInvocation: ctx.request().id });
      return steps.handle(childId, turnId);
    },
    /** Turn `turnId`'s run ended in this process: its children end once the server has its end. */
    turnEnded: (turnId: string) => steps.turnEnded(turnId),
    close: () => steps.close(),
  };
}
