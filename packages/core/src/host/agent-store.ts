/**
 * Agent stores: zustand stores that live per session, outside the React tree, so their state
 * survives skill unloads and is shared by every skill. Instances are keyed by store name, so a
 * definition re-created by a hot reload finds its state. The hook that reads one in a component,
 * `useAgentStore`, lives with the other hooks in `components.ts`.
 */
import { createStore, type StateCreator, type StoreApi } from 'zustand/vanilla';

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
  if (typeof name !== 'string' || name === '') {
    throw new Error('createAgentStore needs a non-empty name as its first argument.');
  }
  if (typeof initializer !== 'function') {
    throw new Error(`createAgentStore("${name}") needs an initializer function, e.g. () => ({ items: [] }).`);
  }
  const def: AgentStoreDef<T> = {
    name,
    initializer,
    of(owner) {
      let target: unknown = owner;
      while (target && typeof target === 'object' && !('store' in target) && 'session' in target) {
        target = (target as { session: unknown }).session;
      }
      const store = (target as { store?: unknown } | null)?.store;
      if (typeof store !== 'function') throw new Error(`${name}.of() needs a session or a tool's ctx.`);
      return store.call(target, def) as StoreApi<T>;
    },
  };
  return def;
}

/** A session's store instances, by name. */
export interface StoreRegistry {
  instances: Map<string, StoreApi<unknown>>;
  /** Which definition claimed each name in the current render generation (see `newGeneration`). */
  claims: Map<string, AgentStoreDef<unknown>>;
  /** State to start from (a snapshot), by name, for stores not created yet. */
  saved: Record<string, unknown>;
  onChange(name: string, state: unknown): void;
}

export function createStoreRegistry(
  saved: Record<string, unknown>,
  onChange: StoreRegistry['onChange'],
): StoreRegistry {
  return { instances: new Map(), claims: new Map(), saved: ownData(saved) as Record<string, unknown>, onChange };
}

/**
 * The instance for `def`: created on first use from the initializer, with saved state merged over
 * the initial state (so fields added since the snapshot get their initial values).
 */
export function storeOf<T>(registry: StoreRegistry, def: AgentStoreDef<T>): StoreApi<T> {
  const claim = registry.claims.get(def.name);
  if (claim && claim !== def) {
    throw new Error(
      `Two agent stores are named "${def.name}" in this session. Store names key snapshots: give each createAgentStore its own name.`,
    );
  }
  if (!claim) registry.claims.set(def.name, def as AgentStoreDef<unknown>);
  let api = registry.instances.get(def.name) as StoreApi<T> | undefined;
  if (api) return api;
  api = createStore(def.initializer);
  const saved = registry.saved[def.name];
  if (saved !== null && typeof saved === 'object' && !Array.isArray(saved)) api.setState(saved as Partial<T>);
  registry.instances.set(def.name, api as StoreApi<unknown>);
  api.subscribe((state) => registry.onChange(def.name, state));
  return api;
}

/**
 * Forgets which definition claimed which name, keeping every instance: after a re-render with new
 * code (a hot reload), a re-created definition takes over its name and its state.
 */
export function newGeneration(registry: StoreRegistry): void {
  registry.claims.clear();
}

/** The state of every store, as JSON data (functions such as actions are left out), by name. */
export function storeStates(registry: StoreRegistry): Record<string, unknown> {
  const out: Record<string, unknown> = { ...registry.saved };
  for (const [name, api] of registry.instances) {
    const json = JSON.stringify(api.getState());
    out[name] = json === undefined ? null : JSON.parse(json);
  }
  return out;
}

const FORBIDDEN = new Set(['__proto__', 'constructor', 'prototype']);

/** A deep copy of JSON-like data as own plain properties only: keys that could reach a prototype are dropped. */
export function ownData(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(ownData);
  if (value === null || typeof value !== 'object') return value;
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(value)) {
    if (FORBIDDEN.has(key)) continue;
    out[key] = ownData((value as Record<string, unknown>)[key]);
  }
  return out;
}
