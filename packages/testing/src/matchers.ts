/**
 * Assertion matchers for vitest (and jest's `expect.extend`): `toHaveTool`, `toHaveLoadedSkill`,
 * `toHaveActiveSkill`, `toHaveContext`. Register them with `import '@skilltree/testing/vitest'`.
 */
import type { Session } from '@skilltree/core';
import { prettyRequest } from './pretty.js';
import { describeMatcher } from './queries.js';
import { isAgentHandle, sourceOf } from './render-agent.js';
import { readView, type SkillView, sourceOfSkill, type View } from './view.js';

/** What the matchers accept: an agent from `renderAgent`, a `Session`, or (for `toHaveTool`/`toHaveContext`) a skill. */
export type MatcherTarget = unknown;

/** The part of a matcher's `this` the matchers use. */
export interface MatcherThis {
  isNot?: boolean;
}

/** A matcher's result, as `expect.extend` wants it. */
export interface MatcherResult {
  pass: boolean;
  message: () => string;
  actual?: unknown;
  expected?: unknown;
}

function isSession(value: unknown): value is Session {
  return (
    !!value &&
    typeof value === 'object' &&
    typeof (value as Session).request === 'function' &&
    typeof (value as Session).view === 'function' &&
    Array.isArray((value as Session).loadedSkills)
  );
}

interface Target {
  view: View;
  /** Set when the received value is a skill: the matcher looks at that skill only. */
  skill?: string;
}

function resolve(received: unknown, matcher: string): Target {
  if (isAgentHandle(received)) return { view: sourceOf(received)() };
  if (isSession(received)) return { view: readView(received) };
  const source = sourceOfSkill(received);
  if (source) return { view: source(), skill: (received as SkillView).name };
  throw new TypeError(
    `${matcher}() needs an agent from renderAgent(), a Session, or a skill from agent.getSkill(); got ${
      received === null ? 'null' : typeof received
    }.`,
  );
}

function printed(view: View): string {
  return view.unmounted ? '(the agent is unmounted: nothing is rendered)' : prettyRequest(view.request);
}

function names(list: string[]): string {
  return list.length > 0 ? list.join(', ') : 'none';
}

function skillSuffix(target: Target): string {
  return target.skill ? ` of skill "${target.skill}"` : '';
}

/**
 * Passes when the request offers a tool whose name matches (a string: exactly; a RegExp: anywhere).
 * On a skill, only that skill's tools count.
 *
 * @example
 * expect(agent).toHaveTool('checkout');
 * expect(agent.getSkill('shopping')).not.toHaveTool(/refund/);
 */
export function toHaveTool(this: MatcherThis, received: MatcherTarget, name: string | RegExp): MatcherResult {
  const target = resolve(received, 'toHaveTool');
  const tools = target.view.tools.filter((t) => !target.skill || t.skill === target.skill);
  const found = tools.filter((t) => (typeof name === 'string' ? t.name === name : name.test(t.name)));
  const pass = found.length > 0;
  const want = describeMatcher(name);
  return {
    pass,
    message: () =>
      pass
        ? `expected the request${skillSuffix(target)} not to offer a tool ${want}, but it offers ${names(
            found.map((t) => (t.skill ? `${t.name} (skill "${t.skill}")` : t.name)),
          )}.\n\n${printed(target.view)}`
        : `expected the request${skillSuffix(target)} to offer a tool ${want}. Tools: ${names(
            tools.map((t) => t.name),
          )}.\n\n${printed(target.view)}`,
  };
}

function skillOf(view: View, name: string): SkillView | undefined {
  return view.skills.find((s) => s.name === name);
}

function catalogNote(view: View, name: string): string {
  return skillOf(view, name)
    ? ''
    : ` The catalog has no skill "${name}" (skills: ${names(view.skills.map((s) => s.name))}).`;
}

function loadedList(view: View): string {
  const loaded = view.skills.filter((s) => s.loaded);
  return names(loaded.map((s) => (s.active ? `${s.name} (active)` : s.name)));
}

/**
 * Passes when the skill is loaded (mounted: loaded or active).
 *
 * @example
 * expect(agent).toHaveLoadedSkill('shopping');
 */
export function toHaveLoadedSkill(this: MatcherThis, received: MatcherTarget, name: string): MatcherResult {
  const target = resolve(received, 'toHaveLoadedSkill');
  const pass = !!skillOf(target.view, name)?.loaded;
  return {
    pass,
    message: () =>
      `expected skill "${name}" ${pass ? 'not ' : ''}to be loaded. Loaded skills: ${loadedList(target.view)}.${catalogNote(
        target.view,
        name,
      )}\n\n${printed(target.view)}`,
  };
}

/**
 * Passes when the skill is the active one (the skill read last).
 *
 * @example
 * expect(agent).toHaveActiveSkill('refunds');
 */
export function toHaveActiveSkill(this: MatcherThis, received: MatcherTarget, name: string): MatcherResult {
  const target = resolve(received, 'toHaveActiveSkill');
  const active = target.view.skills.find((s) => s.active)?.name ?? null;
  const pass = active === name;
  return {
    pass,
    message: () =>
      `expected skill "${name}" ${pass ? 'not ' : ''}to be the active skill; the active skill is ${
        active ? `"${active}"` : 'none'
      }. Loaded skills: ${loadedList(target.view)}.${catalogNote(target.view, name)}\n\n${printed(target.view)}`,
  };
}

/**
 * Passes when `<current_context>` contains the text (a string: as a substring, like jest-dom's
 * `toHaveTextContent`; a RegExp: anywhere). On a skill, only that skill's part counts. The
 * context is searched as the model reads it (escaped).
 *
 * @example
 * expect(agent).toHaveContext('Cart: lamp');
 * expect(agent.getSkill('shopping')).toHaveContext(/Searches: \d+/);
 */
export function toHaveContext(this: MatcherThis, received: MatcherTarget, text: string | RegExp): MatcherResult {
  const target = resolve(received, 'toHaveContext');
  const haystack = target.skill ? (skillOf(target.view, target.skill)?.text ?? '') : target.view.request.context;
  const pass = typeof text === 'string' ? haystack.includes(text) : text.test(haystack);
  const where = target.skill ? `the context of skill "${target.skill}"` : '<current_context>';
  return {
    pass,
    message: () =>
      `expected ${where} ${pass ? 'not ' : ''}to contain ${describeMatcher(text)}.\n\n${printed(target.view)}`,
    actual: haystack,
    expected: text,
  };
}

/** The matchers, for `expect.extend(matchers)` in runners other than vitest. */
export const matchers = { toHaveTool, toHaveLoadedSkill, toHaveActiveSkill, toHaveContext };

/** The matchers' types, for augmenting a runner's assertion interface. */
export interface SkilltreeMatchers<R = unknown> {
  /** The request (or the skill) offers a tool whose name matches. */
  toHaveTool(name: string | RegExp): R;
  /** The skill is loaded (mounted). */
  toHaveLoadedSkill(name: string): R;
  /** The skill is the active one (read last). */
  toHaveActiveSkill(name: string): R;
  /** `<current_context>` (or the skill's part of it) contains the text. */
  toHaveContext(text: string | RegExp): R;
}
