/**
 * A stand-in for a real model, so the desk's evals run in CI with no key: it reads the skills whose
 * catalog descriptions share words with the customer's message (so the catalog's words matter, as
 * they do for a real model), then makes the calls the case plans and replies with what they returned.
 * With a key, run the same eval on a real model: `skilltree eval … --model anthropic:claude-haiku-4-5`.
 */
import { type ModelRequest, scriptedModel, textOf } from '@skilltree/core';
import type { ModelChoice } from '@skilltree/evals';

/** What the stand-in does for a case once it has read its skills. */
export interface Plan {
  calls: { name: string; input: Record<string, unknown> }[];
  /** The reply, from the results of the calls (their texts, in order). */
  reply: (results: string[]) => string;
}

const STOP = new Set(
  'about also been could from have here help just know like need please that their them there they this what when where which will with would your'.split(
    ' ',
  ),
);

/** The words of a text, lower case, without short and common words, crudely stemmed; an email address counts as "email". */
export function words(text: string): Set<string> {
  const out = new Set<string>();
  if (/\S+@\S+\.\w+/.test(text)) out.add('email');
  for (const raw of text.toLowerCase().split(/[^a-z]+/)) {
    if (raw.length < 4 || STOP.has(raw)) continue;
    out.add(raw.replace(/(ing|ed|s)$/, ''));
  }
  return out;
}

/** The catalog in the system prompt: `- name — description` lines. */
function catalog(req: ModelRequest): { name: string; description: string }[] {
  return [...req.system.matchAll(/^- (\S+) — (.+)$/gm)].map((m) => ({ name: m[1], description: m[2] }));
}

/** The skills whose descriptions share a word with `message`. */
export function pick(req: ModelRequest, message: string): string[] {
  const said = words(message);
  return catalog(req)
    .filter((skill) => [...words(skill.description)].some((w) => said.has(w)))
    .map((skill) => skill.name);
}

/** A model factory for the desk's evals: a fresh stand-in per trial, following the case's plan. */
export function offlineModel(plans: Readonly<Record<string, Plan>>): ModelChoice {
  return ({ case: evalCase }) => {
    const plan = plans[evalCase.name];
    if (!plan) throw new Error(`offlineModel: no plan for the case "${evalCase.name}".`);
    let phase: 'pick' | 'call' | 'reply' = 'pick';
    let next = 0;
    let results: string[] = [];
    const step = (req: ModelRequest) => {
      const last = req.messages[req.messages.length - 1];
      if (last?.role === 'user') {
        phase = 'pick';
        next = 0;
        results = [];
      } else if (last?.role === 'tool' && last.name !== 'read_skill') {
        results.push(textOf(last).split('\n')[0]);
      }
      if (phase === 'pick') {
        phase = 'call';
        // What the customer wrote: the runtime's contextChanged lines that follow it are not theirs.
        const said = textOf(last)
          .split('\n')
          .filter((line) => !line.startsWith('contextChanged'))
          .join('\n');
        const reads = pick(req, said);
        if (reads.length > 0) return { toolCalls: reads.map((name) => ({ name: 'read_skill', input: { name } })) };
      }
      if (phase === 'call' && next < plan.calls.length) {
        const call = plan.calls[next++];
        if (next === plan.calls.length) phase = 'reply';
        return { toolCalls: [call] };
      }
      phase = 'reply';
      return { text: plan.reply(results) };
    };
    // A scripted model (its usage is estimated from characters, so cost compares across variants)
    // whose every step asks the stand-in.
    return scriptedModel(Array.from({ length: 12 }, () => step));
  };
}
