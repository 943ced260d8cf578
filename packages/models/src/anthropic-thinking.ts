/**
 * The `thinking` and `effort` options of `anthropic()`: checked against the model's row of
 * `CLAUDE_MODELS` when the adapter is created (a configuration the model refuses fails then, with
 * the fix, instead of as a 400 at the first request), and turned into the body's fields.
 */
import { type ClaudeModelInfo, claudeModel } from './anthropic-models.js';

/** How much the model thinks and writes (`output_config.effort`). */
export type AnthropicEffort = 'low' | 'medium' | 'high' | 'xhigh' | 'max';

/**
 * The `thinking` option, as the Messages API takes it:
 * - `{ type: 'adaptive' }`: the model decides when and how much to think (`display`: `'summarized'`
 *   returns the thinking text, `'omitted'` only its signature);
 * - `{ type: 'enabled', budget_tokens }`: a fixed budget, at least 1 024 and below `maxTokens`;
 * - `{ type: 'between_tools' }`: no thinking before the first tool call (Sonnet 5.5, Haiku 5.5);
 * - `{ type: 'disabled' }`: no thinking.
 */
export type AnthropicThinking =
  | { type: 'adaptive'; display?: 'summarized' | 'omitted' }
  | { type: 'enabled'; budget_tokens: number; display?: 'summarized' | 'omitted' }
  | { type: 'between_tools' }
  | { type: 'disabled' };

/** What {@link resolveThinking} reads. */
export interface ThinkingSettings {
  model: string;
  thinking?: AnthropicThinking;
  effort?: AnthropicEffort;
  /** `max_tokens`, which a budget must stay below. */
  maxTokens: number;
  /** The fields merged into every body, where a `tool_choice` may hide. */
  extraBody?: Record<string, unknown>;
}

/** The body fields the options resolve to. */
export interface ThinkingFields {
  thinking?: AnthropicThinking;
  output_config?: { effort: AnthropicEffort };
}

const EFFORTS: readonly string[] = ['low', 'medium', 'high', 'xhigh', 'max'];

function fail(message: string): never {
  throw new TypeError(`anthropic(): ${message}`);
}

/** Whether a `tool_choice` forces a tool call (`any`, or a named tool), which thinking refuses. */
function forcedToolChoice(extraBody: Record<string, unknown> | undefined): string | undefined {
  const choice = extraBody?.tool_choice as { type?: unknown } | undefined;
  return choice && (choice.type === 'any' || choice.type === 'tool') ? String(choice.type) : undefined;
}

/** Refuses what `row` refuses of `thinking`, naming the fix. */
function checkMode(model: string, row: ClaudeModelInfo, thinking: AnthropicThinking): void {
  const type = thinking.type;
  if (type === 'enabled' && (row.thinking === 'adaptive-only' || row.thinking === 'adaptive-or-off')) {
    fail(
      `${model} takes adaptive thinking only: budget_tokens is refused (HTTP 400). Pass thinking: { type: 'adaptive' }` +
        `${row.thinking === 'adaptive-only' ? ' (the default) or leave thinking out' : ''}, and set effort to say how much it thinks.`,
    );
  }
  if (type === 'disabled' && row.thinking === 'adaptive-only') {
    fail(
      `${model} thinks on every call: thinking: { type: 'disabled' } is refused (HTTP 400). Leave thinking out ` +
        `(adaptive is the default)${row.betweenTools ? ", pass { type: 'between_tools' } for no thinking before the first tool call," : ''} and set effort: 'low' to think less.`,
    );
  }
  if (type === 'adaptive' && row.thinking === 'budget') {
    fail(
      `${model} does not take adaptive thinking. Pass thinking: { type: 'enabled', budget_tokens: 2048 } (at least 1024), or leave thinking out.`,
    );
  }
  if (type === 'between_tools' && !row.betweenTools) {
    fail(
      `${model} does not take thinking: { type: 'between_tools' }. Pass { type: 'adaptive' } or leave thinking out.`,
    );
  }
}

/**
 * The `thinking` and `output_config` of every request, after checking the options against the
 * model's row of `CLAUDE_MODELS`. A model that thinks on every call (`adaptive-only`) gets
 * `{ type: 'adaptive' }` when `thinking` is not given. A model the table does not know gets the
 * options as they are. Throws a `TypeError` naming the fix for what the model refuses: a budget or
 * `disabled` on a model that takes only adaptive thinking, adaptive thinking on one that takes only a
 * budget, `effort` on a model without it, a budget outside 1 024 … `maxTokens - 1`, and a forced
 * `tool_choice` (in `extraBody`) while the model thinks.
 */
export function resolveThinking(settings: ThinkingSettings): ThinkingFields {
  const { model, thinking, effort } = settings;
  const row = claudeModel(model);
  if (thinking !== undefined) {
    const type = (thinking as { type?: unknown } | null)?.type;
    if (!['adaptive', 'enabled', 'between_tools', 'disabled'].includes(String(type))) {
      fail(
        `thinking must be { type: 'adaptive' | 'enabled' | 'between_tools' | 'disabled' }, got ${JSON.stringify(thinking)}.`,
      );
    }
    if (row) checkMode(model, row, thinking);
    if (thinking.type === 'enabled') {
      const budget = thinking.budget_tokens;
      if (!Number.isInteger(budget) || budget < 1024 || budget >= settings.maxTokens) {
        fail(
          `thinking.budget_tokens must be an integer from 1024 up to maxTokens - 1 (${settings.maxTokens - 1}), got ${budget}. Raise maxTokens or lower the budget.`,
        );
      }
    }
  }
  if (effort !== undefined) {
    if (!EFFORTS.includes(effort)) fail(`effort must be one of ${EFFORTS.join(', ')}, got ${JSON.stringify(effort)}.`);
    if (row && !row.effort)
      fail(`${model} does not take effort. Leave effort out, or use a model that takes it (see docs/models.md).`);
  }
  const resolved = thinking ?? (row?.thinking === 'adaptive-only' ? { type: 'adaptive' as const } : undefined);
  const thinks = resolved !== undefined && resolved.type !== 'disabled';
  const forced = forcedToolChoice(settings.extraBody);
  if (forced && row && !row.forcedToolChoice) {
    fail(
      `${model} refuses a forced tool_choice ({ type: '${forced}' }): it thinks on every call. Leave tool_choice out (or use { type: 'auto' }) and say in the instructions which tool to use.`,
    );
  }
  if (forced && thinks) {
    fail(
      `tool_choice { type: '${forced}' } forces a tool call, which thinking does not allow. Leave tool_choice out (or use { type: 'auto' }), or pass thinking: { type: 'disabled' }${row?.thinking === 'adaptive-only' ? ' on a model that takes it' : ''}.`,
    );
  }
  const fields: ThinkingFields = {};
  if (resolved) fields.thinking = resolved;
  if (effort) fields.output_config = { effort };
  return fields;
}
