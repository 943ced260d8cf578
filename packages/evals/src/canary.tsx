/**
 * The shipped suite: does the model read the right skill, given only the catalog's words? Each skill
 * holds a planted canary, a code the answer must quote when (and only when) the skill was read, so
 * the suite sees both whether a skill was read and whether it was used. Run it on your own catalog
 * (names and descriptions) with your own model and key; offline it runs on `oracleModel`, a
 * scripted model, or recordings.
 */
import { createHash } from 'node:crypto';
import { Agent, type CatalogMode, createSession, Instructions, Skill } from '@skilltree/core';
import type { ReactElement, ReactNode } from 'react';
import type { EvalCase, EvalSuite, EvalVariant, ModelChoice, Scorer, Threshold } from './types.js';

/** A skill of the catalog under test: what the model sees before it reads it. */
export interface CanarySkill {
  name: string;
  description: string;
}

/** A task: a user message, and the skills answering it needs (none, one or several). */
export interface CanaryTask {
  /** Names the case. Default: the message's first words. */
  name?: string;
  message: string;
  needs: readonly string[];
}

/**
 * The default catalog: eight shop skills whose descriptions overlap on purpose (refunds, returns,
 * billing and warranty all touch money back; shipping and address both touch delivery; gift cards
 * and loyalty points both touch balances), and tasks that need one skill, two skills, or none.
 */
export const CANARY_CATALOG: { readonly skills: readonly CanarySkill[]; readonly tasks: readonly CanaryTask[] } = {
  skills: [
    { name: 'refunds', description: 'Refund a delivered order to the original payment method' },
    { name: 'returns', description: 'Return a delivered item: a return label, and how to send it back' },
    { name: 'billing', description: "Charges on the customer's card: invoices, double charges, failed payments" },
    { name: 'warranty', description: 'Repair or replace a product that broke within its warranty' },
    { name: 'shipping', description: 'Track a parcel: carrier, tracking number, expected delivery date' },
    { name: 'address', description: 'Change the delivery address of an order that has not shipped' },
    { name: 'gift-cards', description: 'Gift card balances, and redeeming a gift card code' },
    { name: 'loyalty', description: 'Loyalty points: the balance, and the rewards to spend them on' },
  ],
  tasks: [
    {
      name: 'double charge',
      message: 'I was charged twice for order A-17. Can you check the charges on my card?',
      needs: ['billing'],
    },
    {
      name: 'return label',
      message: 'I want to send the lamp from order A-17 back. How do I get a return label?',
      needs: ['returns'],
    },
    {
      name: 'broken kettle',
      message: 'My kettle stopped heating after five months. Can you repair or replace it?',
      needs: ['warranty'],
    },
    {
      name: 'money back',
      message: 'Order A-31 was delivered last week. Please refund it to my card.',
      needs: ['refunds'],
    },
    {
      name: 'where is my parcel',
      message: 'Where is my parcel for order A-22? I need the tracking number.',
      needs: ['shipping'],
    },
    { name: 'gift card balance', message: 'How much is left on my gift card GC-5521?', needs: ['gift-cards'] },
    {
      name: 'new address, and when',
      message:
        'Order A-40 has not shipped yet: please send it to 4 Elm Road instead, and tell me when it should arrive.',
      needs: ['address', 'shipping'],
    },
    {
      name: 'points and a gift card',
      message: 'How many loyalty points do I have? And please redeem my gift card code GC-9 too.',
      needs: ['loyalty', 'gift-cards'],
    },
    { name: 'translate', message: "How do you say 'thank you' in French?", needs: [] },
    { name: 'thanks', message: "Thanks, that's all for today!", needs: [] },
  ],
};

/** The canary code of a skill: `CANARY-` and six hex digits, the same for the same name every time. */
export function canaryCode(skill: string): string {
  return `CANARY-${createHash('sha256').update(skill).digest('hex').slice(0, 6).toUpperCase()}`;
}

/** Every canary code in a text. */
export function canaryCodes(text: string): string[] {
  return [...new Set(text.match(/CANARY-[0-9A-F]{6}/g) ?? [])];
}

const DEFAULT_INSTRUCTIONS =
  'You are the assistant of an online shop. Read the skills a request needs before you answer; do not read skills it does not need.';

/** Options of {@link canaryAgent}. */
export interface CanaryAgentOptions {
  /**
   * How the catalog reaches the model (`<Agent catalog>`): compare `'list'` and `'search'` as two
   * variants of one suite to see what a searched catalog does to selection, tokens and cost.
   */
  catalog?: CatalogMode;
}

/**
 * An agent with one skill per catalog entry (its name and description as given); each skill's
 * instructions ask the model to quote the skill's canary code in any answer that uses it.
 */
export function canaryAgent(
  skills: readonly CanarySkill[],
  instructions = DEFAULT_INSTRUCTIONS,
  options: CanaryAgentOptions = {},
): ReactElement {
  return (
    <Agent catalog={options.catalog}>
      <Instructions>{instructions}</Instructions>
      {skills.map((s) => (
        <Skill key={s.name} name={s.name} description={s.description}>
          <Instructions>
            {`You handle: ${s.description}.\nEvery answer that uses this skill must end with the line "canary ${canaryCode(s.name)}" (the code proves the skill was read).`}
          </Instructions>
        </Skill>
      ))}
    </Agent>
  );
}

/** The catalog of an agent: each skill's name and description, as the model sees them before reading. */
export function catalogOf(agent: ReactNode): CanarySkill[] {
  const session = createSession(agent);
  try {
    return session.skills.map((s) => ({ name: s.name, description: s.description }));
  } finally {
    session.dispose();
  }
}

/**
 * `canary.used` (of the skills read, the share whose code the final answer quotes: the model used
 * what it read) and `canary.unread` (codes quoted of skills that were not read: should be 0).
 */
export const canaryScorer: Scorer = {
  name: 'canary',
  metrics: {
    used: { description: 'of the skills read, the share whose canary code the answer quotes' },
    unread: { better: 'lower', unit: 'count', description: 'canary codes quoted of skills that were not read' },
  },
  score(trial) {
    const quoted = new Set(canaryCodes(trial.text));
    const read = [...new Set(trial.reads.filter((r) => r.ok).map((r) => r.name))];
    const codes = new Map(trial.catalog.map((name) => [canaryCode(name), name]));
    const unread = [...quoted].filter((code) => codes.has(code) && !read.includes(codes.get(code)!));
    const notes =
      unread.length > 0 ? [`quoted the code of ${unread.map((c) => codes.get(c)).join(', ')} without reading it`] : [];
    return {
      metrics: {
        used: read.length === 0 ? null : read.filter((name) => quoted.has(canaryCode(name))).length / read.length,
        unread: unread.length,
      },
      notes,
    };
  },
};

/** Options of {@link canarySuite}. */
export interface CanarySuiteOptions {
  /** Default `canaries`. */
  name?: string;
  /** The catalog under test. Default: {@link CANARY_CATALOG}'s skills (or, with `agent`, that agent's catalog). */
  skills?: readonly CanarySkill[];
  /** Take the catalog from your agent: each skill's name and description (its children are not used). */
  agent?: ReactNode;
  /** The tasks; each names the skills it needs. Default: {@link CANARY_CATALOG}'s (for its skills only). */
  tasks?: readonly CanaryTask[];
  /** The agent-level instructions. */
  instructions?: string;
  model?: ModelChoice;
  variants?: readonly EvalVariant[];
  trials?: number;
  /** Default: `selection.recall >= 0.8` and `selection.precision >= 0.8`. */
  thresholds?: readonly (string | Threshold)[];
}

/**
 * The canary suite over a catalog: one case per task; a case needs the task's skills read and their
 * codes quoted, and no code of another skill. Scored by the built-in scorers plus {@link canaryScorer}.
 *
 * @example
 * // Your catalog, your model: does the model pick the right skill from your descriptions?
 * export default canarySuite({
 *   agent: <MyAgent />,
 *   tasks: [{ message: 'Where is my parcel?', needs: ['shipping'] }, { message: 'Hi!', needs: [] }],
 *   model: anthropic({ model: 'claude-haiku-4-5' }),
 * });
 */
export function canarySuite(options: CanarySuiteOptions = {}): EvalSuite {
  const skills = options.skills ?? (options.agent !== undefined ? catalogOf(options.agent) : CANARY_CATALOG.skills);
  const names = skills.map((s) => s.name);
  const tasks = options.tasks ?? (options.skills || options.agent !== undefined ? undefined : CANARY_CATALOG.tasks);
  if (!tasks || tasks.length === 0) {
    throw new Error(
      'canarySuite: pass tasks for your catalog, e.g. [{ message: "Where is my parcel?", needs: ["shipping"] }].',
    );
  }
  for (const task of tasks) {
    const unknown = task.needs.filter((n) => !names.includes(n));
    if (unknown.length > 0) {
      throw new Error(
        `canarySuite: the task "${task.message}" needs ${unknown.join(', ')}, not in the catalog (${names.join(', ')}).`,
      );
    }
  }
  const cases: EvalCase[] = tasks.map((task) => ({
    name: task.name ?? task.message.split(/\s+/).slice(0, 6).join(' '),
    messages: task.message,
    expect: {
      reads: task.needs,
      text: [
        ...task.needs.map(canaryCode),
        ...names.filter((n) => !task.needs.includes(n)).map((n) => ({ not: canaryCode(n) })),
      ],
    },
  }));
  return {
    name: options.name ?? 'canaries',
    agent: () => canaryAgent(skills, options.instructions),
    ...(options.model ? { model: options.model } : {}),
    cases,
    ...(options.variants ? { variants: options.variants } : {}),
    ...(options.trials ? { trials: options.trials } : {}),
    scorers: [canaryScorer],
    thresholds: options.thresholds ?? ['selection.recall >= 0.8', 'selection.precision >= 0.8'],
  };
}
