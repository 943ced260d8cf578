/**
 * The eval variant of issue 34: the same cases over `catalog: 'list'` and `catalog: 'search'`,
 * side by side (selection, tokens, cost). Offline, a keyword model stands in for a real one: it
 * searches when the request offers `search_skills`, else picks from the listed catalog by shared
 * words, reads the skill and answers with the canary codes it can see. With a real model, the
 * same two variants answer the question for a real catalog (docs/catalogs.md).
 */
import { type Model, type ModelRequest, textOf } from '@skilltree/core';
import { CANARY_CATALOG, type CanarySkill, canaryAgent, canaryCodes, canarySuite, runEval } from '@skilltree/evals';
import { describe, expect, it } from 'vitest';

const words = (text: string) => new Set(text.toLowerCase().match(/[a-z]{4,}/g) ?? []);

/** The listed skill sharing the most words with `text` (what a model does with a listed catalog, roughly). */
function pickListed(system: string, text: string): string | null {
  const asked = words(text);
  let best: string | null = null;
  let most = 0;
  for (const line of system.split('\n')) {
    const m = /^- ([\w-]+) — (.*)$/.exec(line);
    if (!m) continue;
    const shared = [...words(`${m[1]} ${m[2]}`)].filter((w) => asked.has(w)).length;
    if (shared > most) [best, most] = [m[1], shared];
  }
  return best;
}

let calls = 0;
/** Search, then read, then answer; or read from the list, then answer. */
const keywordModel: Model = {
  name: 'keyword-model',
  async generate(req: ModelRequest) {
    const id = `k${++calls}`;
    const last = req.messages.at(-1);
    const asked = req.messages.findLast((m) => m.role === 'user');
    const user = asked ? textOf(asked) : '';
    // What a provider would count: the request's characters, 4 to a token.
    const usage = {
      inputTokens: Math.ceil(JSON.stringify([req.system, req.context, req.messages, req.tools]).length / 4),
      outputTokens: 20,
    };
    const call = (name: string, input: unknown) => ({ text: '', toolCalls: [{ id, name, input }], usage });
    const answer = () => ({
      text: `Done. ${canaryCodes(`${req.system}\n${req.context}`).join(' ')}`,
      toolCalls: [],
      usage,
    });
    if (last?.role === 'tool' && last.name === 'search_skills') {
      const name = /^([\w-]+) — /.exec(textOf(last))?.[1];
      return name ? call('read_skill', { name }) : answer();
    }
    if (last?.role === 'tool') return answer();
    if (req.tools.some((t) => t.name === 'search_skills')) {
      return call('search_skills', { query: user });
    }
    const name = pickListed(req.system, user);
    return name ? call('read_skill', { name }) : answer();
  },
};

/** The canary catalog among 200 look-alike skills of other shops' departments. */
const fillers: CanarySkill[] = Array.from({ length: 200 }, (_, i) => ({
  name: `dept-${i}`,
  description: `Department ${i} of the warehouse: shelf ${i % 17}, aisle ${i % 9}, stock counts`,
}));
const skills = [...CANARY_CATALOG.skills, ...fillers];

describe("catalog 'list' and 'search' as eval variants", () => {
  it('compares selection, tokens and cost of the two catalogs on the same cases', async () => {
    const suite = canarySuite({
      skills,
      tasks: CANARY_CATALOG.tasks,
      model: keywordModel,
      thresholds: [],
      variants: [
        { name: 'list', agent: canaryAgent(skills, undefined, { catalog: 'list' }), price: 'claude-haiku-4-5' },
        { name: 'search', agent: canaryAgent(skills, undefined, { catalog: 'search' }), price: 'claude-haiku-4-5' },
      ],
    });
    const report = await runEval(suite);
    const [list, search] = report.variants;
    expect([list.name, search.name]).toEqual(['list', 'search']);
    for (const v of [list, search]) {
      expect(v.metrics['selection.recall']?.mean).toBeGreaterThan(0.5);
      expect(v.metrics['tokens.input']?.mean).toBeGreaterThan(0);
      expect(v.metrics.cost?.mean).toBeGreaterThan(0);
    }
    // 208 skills listed on every request cost far more than a search round trip.
    expect(search.metrics['tokens.input']!.mean!).toBeLessThan(list.metrics['tokens.input']!.mean! / 3);
    expect(search.metrics.cost!.mean!).toBeLessThan(list.metrics.cost!.mean!);
  });
});
