/**
 * What each part of the tree cost in a trial (issue 34): each request's `attribution` (core's
 * `request.attribution`) summed over the trial's requests, and a scorer that reports those sums as
 * metrics, so variants (a listed catalog against a searched one, say) compare part by part.
 */
import type { RequestAttribution } from '@skilltree/core';
import type { Scorer } from '../types.js';

/**
 * The attributions of `requests` summed part by part, each skill by name (a skill counts in the
 * requests it was loaded for); null when no request carries one.
 */
export function sumAttributions(
  requests: readonly { attribution?: RequestAttribution | null }[],
): RequestAttribution | null {
  let sum: RequestAttribution | null = null;
  for (const { attribution: a } of requests) {
    if (!a) continue;
    if (!sum) {
      sum = {
        total: 0,
        instructions: 0,
        text: 0,
        tools: 0,
        catalog: 0,
        transcript: 0,
        machinery: 0,
        skills: {},
        counted: a.counted,
      };
    }
    sum.total += a.total;
    sum.instructions += a.instructions;
    sum.text += a.text;
    sum.tools += a.tools;
    sum.catalog += a.catalog;
    sum.transcript += a.transcript;
    sum.machinery += a.machinery;
    for (const [name, cost] of Object.entries(a.skills)) {
      sum.skills[name] ??= { instructions: 0, text: 0, tools: 0, total: 0 };
      const into = sum.skills[name];
      into.instructions += cost.instructions;
      into.text += cost.text;
      into.tools += cost.tools;
      into.total += cost.total;
    }
    // A tokenizer's count for one request and the estimate for another make an estimate.
    if (a.counted !== sum.counted) sum.counted = 'estimate';
  }
  return sum;
}

const PARTS = ['total', 'instructions', 'text', 'tools', 'catalog', 'skills', 'transcript', 'machinery'] as const;

const DESCRIPTIONS: Record<(typeof PARTS)[number], string> = {
  total: 'input tokens of every request, as the tree attributes them',
  instructions: "tokens of the agent's own instructions, summed over the requests",
  text: "tokens of the agent's own text lines, summed over the requests",
  tools: "tokens of the agent's own tools, summed over the requests",
  catalog: 'tokens of the skill catalog (and the read tool), summed over the requests',
  skills: "tokens of the loaded skills' instructions, text and tools, summed over the requests",
  transcript: 'tokens of the transcript window, summed over the requests',
  machinery: 'tokens of tags, separators and notes, summed over the requests',
};

/**
 * `attribution.<part>`: what each part of the tree cost over a trial's requests, in tokens
 * (`total`, `instructions`, `text`, `tools`, `catalog`, `skills`, `transcript`, `machinery`), from
 * each request's `attribution`. Not among the built-in scorers: add it to a suite's `scorers` to
 * compare variants part by part.
 *
 * @example
 * defineEval({ agent: <Desk />, cases, scorers: [attributionScorer], variants: [{ name: 'list' }, { name: 'search' }] });
 */
export const attributionScorer: Scorer = {
  name: 'attribution',
  metrics: Object.fromEntries(
    PARTS.map((part) => [part, { better: 'lower', unit: 'tokens', description: DESCRIPTIONS[part] }]),
  ),
  score: (trial) => {
    const sum = trial.attribution ?? null;
    if (!sum) return { metrics: Object.fromEntries(PARTS.map((part) => [part, null])) };
    const skills = Object.values(sum.skills).reduce((n, cost) => n + cost.total, 0);
    return { metrics: Object.fromEntries(PARTS.map((part) => [part, part === 'skills' ? skills : sum[part]])) };
  },
};
