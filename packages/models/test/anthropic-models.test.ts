/**
 * The Claude model table, one test per row: `anthropic({ model })` works with no thinking options,
 * what the model refuses fails when the adapter is created (naming the fix), the test server
 * refuses the same (so the two agree), and `appendOnly` and tool changes follow the row.
 */
import { type ModelRequest, priceFor } from '@skilltree/core';
import { describe, expect, it } from 'vitest';
import {
  type AnthropicThinking,
  anthropic,
  anthropicRequestBody,
  bindsPrefix,
  CLAUDE_MODELS,
  claudeModel,
  supportsToolChanges,
  TOOL_CHANGE_MODELS,
} from '../src/anthropic.js';
import { claudeModelId } from '../src/anthropic-models.js';
import { openaiModelKey } from '../src/openai-models.js';
import { ADAPTIVE_ONLY, PRESERVED_THINKING, thinkingProblem } from './helpers/anthropic-thinking.js';
import { text } from './helpers/request.js';

const req: ModelRequest = {
  system: 'S',
  context: '',
  contextPlacement: 'system',
  tools: [],
  messages: [{ role: 'user', content: text('hi') }],
};
const create = (model: string, extra: Record<string, unknown> = {}) =>
  anthropic({ model, apiKey: 'sk-test', baseURL: 'http://127.0.0.1:9', ...extra });
const bodyOf = (model: string, extra: Record<string, unknown> = {}) =>
  anthropicRequestBody(req, { model, cache: false, ...extra });

const ADAPTIVE: AnthropicThinking = { type: 'adaptive' };
const BUDGET: AnthropicThinking = { type: 'enabled', budget_tokens: 2048 };
const DISABLED: AnthropicThinking = { type: 'disabled' };
const FORCED = { extraBody: { tool_choice: { type: 'any' } } };

describe('CLAUDE_MODELS: one test per row', () => {
  it.each(Object.entries(CLAUDE_MODELS))('%s', (id, row) => {
    // No options: works, and the body is one the API takes.
    const model = create(id);
    expect(model.name).toBe(`anthropic:${id}`);
    expect(model.appendOnly).toBe(row.preservedThinking);
    const plain = bodyOf(id);
    expect(plain.thinking).toEqual(row.thinking === 'adaptive-only' ? ADAPTIVE : undefined);
    // Room for the thinking of a model that always thinks.
    expect(plain.max_tokens).toBe(row.thinking === 'adaptive-only' ? 16_000 : 4096);
    expect(thinkingProblem(plain)).toBeNull();
    // The table and the test server (written from the docs) agree.
    expect(ADAPTIVE_ONLY.includes(id)).toBe(row.thinking === 'adaptive-only');
    expect(PRESERVED_THINKING.includes(id)).toBe(row.preservedThinking);
    expect(supportsToolChanges(id)).toBe(row.toolChanges);
    expect(TOOL_CHANGE_MODELS.includes(id)).toBe(row.toolChanges);
    expect(bindsPrefix(`${id}-20261201`)).toBe(row.preservedThinking);
    expect(claudeModel(`${id}-20261201`)).toBe(row);

    const takes = (thinking: AnthropicThinking, ok: boolean, fix: RegExp = /./) => {
      if (ok) {
        expect(() => create(id, { thinking, maxTokens: 8192 })).not.toThrow();
        expect(thinkingProblem(bodyOf(id, { thinking, maxTokens: 8192 }))).toBeNull();
      } else {
        expect(() => create(id, { thinking, maxTokens: 8192 })).toThrow(fix);
      }
    };
    switch (row.thinking) {
      case 'adaptive-only':
        takes(ADAPTIVE, true);
        takes(BUDGET, false, /takes adaptive thinking only: budget_tokens is refused.*leave thinking out/);
        takes(DISABLED, false, /thinks on every call: .*disabled.* is refused.*effort: 'low'/);
        // The server refuses both with the API's 400.
        expect(thinkingProblem({ ...plain, thinking: BUDGET })).toMatch(/"enabled" is not supported for this model/);
        expect(thinkingProblem({ ...plain, thinking: DISABLED })).toMatch(/"disabled" is not supported for this model/);
        break;
      case 'adaptive-or-off':
        takes(ADAPTIVE, true);
        takes(DISABLED, true);
        takes(BUDGET, false, /takes adaptive thinking only: budget_tokens is refused/);
        break;
      case 'adaptive-or-budget':
        takes(ADAPTIVE, true);
        takes(DISABLED, true);
        takes(BUDGET, true);
        break;
      case 'budget':
        takes(BUDGET, true);
        takes(DISABLED, true);
        takes(ADAPTIVE, false, /does not take adaptive thinking.*budget_tokens/);
        break;
    }
    takes({ type: 'between_tools' }, row.betweenTools === true, /does not take thinking: \{ type: 'between_tools' \}/);

    if (row.effort) {
      expect(create(id, { effort: 'low' })).toBeTruthy();
      expect(bodyOf(id, { effort: 'low' }).output_config).toEqual({ effort: 'low' });
    } else {
      expect(() => create(id, { effort: 'low' })).toThrow(`${id} does not take effort`);
    }

    // A forced tool_choice: refused by the model, or by thinking, or taken when nothing thinks.
    if (!row.forcedToolChoice) {
      expect(() => create(id, FORCED)).toThrow(/refuses a forced tool_choice .*Leave tool_choice out/);
      expect(thinkingProblem({ ...plain, tool_choice: { type: 'any' } })).toMatch(/not supported for this model/);
    } else if (row.thinking === 'adaptive-only') {
      expect(() => create(id, FORCED)).toThrow(/forces a tool call, which thinking does not allow/);
    } else {
      expect(() => create(id, FORCED)).not.toThrow();
      const thinking = row.thinking === 'budget' ? BUDGET : ADAPTIVE;
      expect(() => create(id, { ...FORCED, thinking, maxTokens: 8192 })).toThrow(/which thinking does not allow/);
    }
  });
});

describe('list prices', () => {
  it('every Claude 5.x model of the table has a list price (dated ids too), so cost lines and dollar budgets work', () => {
    const fives = Object.keys(CLAUDE_MODELS).filter((id) => /^claude-[a-z]+-5(-\d)?$/.test(id));
    expect(fives.length).toBeGreaterThanOrEqual(11);
    for (const id of fives) {
      expect(priceFor(id), id).toBeDefined();
      expect(priceFor(`${id}-20261201`)).toEqual(priceFor(id));
    }
    expect(priceFor('claude-opus-5-5')).toMatchObject({ input: 4, output: 20, cacheRead: 0.2, cacheWrite: 5 });
  });
});

describe('options the table does not decide', () => {
  it('a model the table does not know gets no defaults and no checks', () => {
    expect(bodyOf('claude-test').thinking).toBeUndefined();
    expect(create('claude-test').appendOnly).toBe(false);
    expect(bodyOf('claude-test', { thinking: BUDGET, effort: 'max', maxTokens: 8192 })).toMatchObject({
      thinking: BUDGET,
      output_config: { effort: 'max' },
    });
  });

  it('a budget must be an integer from 1024 up to maxTokens - 1', () => {
    const budget = (n: number) => ({ thinking: { type: 'enabled', budget_tokens: n } as AnthropicThinking });
    expect(() => create('claude-opus-4-6', budget(512))).toThrow(/from 1024 up to maxTokens - 1 \(4095\), got 512/);
    expect(() => create('claude-opus-4-6', budget(4096))).toThrow(/Raise maxTokens or lower the budget/);
    expect(() => create('claude-opus-4-6', budget(4095))).not.toThrow();
  });

  it('an unknown thinking type or effort is refused', () => {
    expect(() => create('claude-test', { thinking: { type: 'on' } })).toThrow(/thinking must be \{ type:/);
    expect(() => create('claude-test', { effort: 'huge' })).toThrow(
      /effort must be one of low, medium, high, xhigh, max/,
    );
  });
});

describe('dated model ids', () => {
  it("a dated id is its model's row, by core's one rule (listedModel)", () => {
    expect(claudeModelId('claude-opus-5-5-20261001')).toBe('claude-opus-5-5');
    expect(claudeModelId('claude-opus-5-5@20261001')).toBe('claude-opus-5-5');
    expect(openaiModelKey('gpt-5.6-2026-10-01')).toBe('gpt-5.6');
    expect(openaiModelKey('gpt-5.6-20261001')).toBe('gpt-5.6');
    expect(claudeModelId('claude-opus-5-5x')).toBeUndefined();
  });
});
