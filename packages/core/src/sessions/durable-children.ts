/**
 * The child workflows of subagent runs (`TurnEngine.child`) seen through the same guard as their
 * turn's steps: a wrapper of a turn's engine (the handover's, a superseded turn's replay-only one)
 * applies to every step the turn records, its runs' too, wherever the engine records them.
 */
import type { ChildWorkflow, TurnEngine } from '../types/engine.js';

/** Turns one way of recording a step into the guarded one. */
export type StepGuard = (record: TurnEngine['step']) => TurnEngine['step'];

/** `child` (and the children of its runs) with each step recorded through `guard`. */
export function childThrough(child: ChildWorkflow, guard: StepGuard): ChildWorkflow {
  const out: ChildWorkflow = { id: child.id, step: guard(child.step.bind(child)) };
  const nested = child.child?.bind(child);
  if (nested) out.child = (name) => childThrough(nested(name), guard);
  return out;
}

/**
 * `engine` with each step, its runs' child workflows' steps included, recorded through `guard`.
 * Waits and signals are the engine's own.
 */
export function guardedEngine(engine: TurnEngine, guard: StepGuard): TurnEngine {
  const guarded: TurnEngine = {
    name: engine.name,
    register: (registration) => engine.register(registration),
    run: (turnId, input) => engine.run(turnId, input),
    step: guard(engine.step.bind(engine)),
    close: () => engine.close(),
  };
  const child = engine.child?.bind(engine);
  if (child) guarded.child = (name) => childThrough(child(name), guard);
  return guarded;
}
