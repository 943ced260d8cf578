/**
 * Agent stores: zustand stores that live per session, outside the React tree, so their state
 * survives skill unloads and is shared by every skill.
 */
import { useStore } from 'zustand';
import type { StateCreator, StoreApi } from 'zustand/vanilla';
import { useRuntime } from './components.js';

/** Anything that leads to a session: the session itself or a tool's `ctx`. */
export type StoreOwner = { store<T>(def: AgentStoreDef<T>): StoreApi<T> } | { session: StoreOwner };

/** A store definition. One instance per session, created on first use. */
export interface AgentStoreDef<T> {
  /** Keys the store's state in snapshots; unique per session. */
  readonly name: string;
  /** The zustand initializer, as passed to `createStore`. */
  readonly initializer: StateCreator<T, [], []>;
  /** The instance for a session or a tool's `ctx`: `getState`, `setState`, `subscribe`. */
  of(owner: StoreOwner): StoreApi<T>;
}

/**
 * Defines an agent store. `initializer` is the same function zustand's `createStore` takes.
 *
 * @example
 * const cart = createAgentStore('cart', () => ({ items: [] as string[] }));
 * cart.of(ctx).setState((s) => ({ items: [...s.items, 'lamp'] }));
 */
export function createAgentStore<T>(name: string, initializer: StateCreator<T, [], []>): AgentStoreDef<T> {
  if (typeof name !== 'string' || name === '')
    throw new Error('createAgentStore needs a non-empty name as its first argument.');
  if (typeof initializer !== 'function') {
    throw new Error(`createAgentStore("${name}") needs an initializer function, e.g. () => ({ items: [] }).`);
  }
  const def: AgentStoreDef<T> = {
    name,
    initializer,
    of(owner) {
      let target = owner as any;
      while (target && !('store' in target) && 'session' in target) target = target.session;
      if (!target || typeof target.store !== 'function') {
        throw new Error(`${name}.of() needs a session or a tool's ctx.`);
      }
      return target.store(def);
    },
  };
  return def;
}

/** Subscribes a component to an agent store; re-renders when the selected slice changes. */
export function useAgentStore<T>(def: AgentStoreDef<T>): T;
export function useAgentStore<T, U>(def: AgentStoreDef<T>, selector: (state: T) => U): U;
export function useAgentStore<T, U>(def: AgentStoreDef<T>, selector?: (state: T) => U): T | U {
  const { session } = useRuntime('useAgentStore()');
  return useStore(def.of(session), selector ?? ((state: T) => state as unknown as U));
}
