/**
 * What a rendered tree needs from its session, passed down through React context.
 * Kept separate from `session.ts` so components never import the session loop.
 */
import { createContext } from 'react';
import type { Session } from './session.js';

/** Where a skill stands in the LRU order. */
export type SkillState = 'unloaded' | 'loaded' | 'active';

export interface Runtime {
  readonly session: Session;
  /** Subscribes to changes of the loaded-skill order (useSyncExternalStore contract). */
  subscribeSkills(listener: () => void): () => void;
  skillState(name: string): SkillState;
  /** A skill's subtree threw while rendering; the session unloads it and reports the error. */
  reportSkillError(name: string, error: unknown): void;
}

export const RuntimeContext = createContext<Runtime | null>(null);
RuntimeContext.displayName = 'SkilltreeRuntime';

/** What `useSkill()` returns inside a skill. */
export interface SkillInfo {
  /** The skill's name. */
  name: string;
  /** True while it is the skill read last. */
  active: boolean;
}

export const SkillContext = createContext<SkillInfo | null>(null);
SkillContext.displayName = 'SkilltreeSkill';
