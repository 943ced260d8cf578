/**
 * What each Claude model takes: its thinking modes, whether its thinking is bound to the exact
 * prefix of the request (preserved thinking), whether it takes tool changes inside the
 * conversation, and whether it takes `effort`. One table, read by the adapter (defaults, the checks
 * made when it is created, `Model.appendOnly`, the layout of each request) and by the docs
 * (docs/models.md shows the same rows).
 *
 * Sources: the model ids of `@anthropic-ai/sdk` 1.15.0 (`Model`); Anthropic's pages "Preserved
 * thinking" (the models with preserved thinking), "Mid-conversation system messages and tool
 * changes", "Adaptive thinking", each model's overview and "What's new" page (thinking always on,
 * forced tool use refused). Fable 5.2 and Mythos 5.2 are not on the mid-conversation page, which
 * predates them; their "What's new" page lists what changed from 5.1 and removes none of it, and the
 * preserved-thinking page, which names them, prescribes system messages and `tool_addition` /
 * `tool_removal` for every model it covers, so they are marked as taking tool changes. Claude Opus 4.1
 * (in core's price table, not in the SDK's ids) takes a thinking budget ("Extended thinking") and
 * no effort (`effort` came with Opus 4.5), as Sonnet 4.5 does.
 *
 * Prices: each row names its entry in core's `PRICES` (`price`); see `ModelPricing`. Each entry
 * carries the day its rates are of and where they come from (`asOf`, `source`).
 */
import { listedModel } from '@skilltree/core/provider';
import type { ModelPricing } from './model-pricing.js';

/**
 * How a model thinks:
 * - `adaptive-only`: it thinks on every call (`thinking: { type: 'adaptive' }`, the adapter's
 *   default); `budget_tokens` and `disabled` are refused;
 * - `adaptive-or-off`: adaptive thinking, or none (`disabled`, or no `thinking`); no `budget_tokens`;
 * - `adaptive-or-budget`: adaptive thinking, a fixed budget (`{ type: 'enabled', budget_tokens }`), or none;
 * - `budget`: a fixed budget or none; adaptive thinking is refused.
 */
export type ClaudeThinkingMode = 'adaptive-only' | 'adaptive-or-off' | 'adaptive-or-budget' | 'budget';

/** What a Claude model takes: the capability side of a row of {@link CLAUDE_MODELS}. */
export interface ClaudeModelInfo {
  /** Which `thinking` configurations the model takes. */
  thinking: ClaudeThinkingMode;
  /** Whether it also takes `{ type: 'between_tools' }` (no thinking before the first tool call). */
  betweenTools?: true;
  /**
   * Preserved thinking: each thinking block's signature is bound to the model and to the exact prefix
   * before it (top-level `system`, `tools`, every earlier message and block); a change there is
   * refused. The adapter's `Model.appendOnly` is this.
   */
  preservedThinking: boolean;
  /** Mid-conversation `role: "system"` messages with `tool_addition` / `tool_removal` blocks. */
  toolChanges: boolean;
  /** `output_config.effort`. */
  effort: boolean;
  /** Whether a forced `tool_choice` (`any`, or a named tool) is accepted; thinking refuses it anyway. */
  forcedToolChoice: boolean;
}

/** One row of {@link CLAUDE_MODELS}: what the model takes, and its price or why it has none. */
export type ClaudeModelRow = ClaudeModelInfo & ModelPricing;

const preserved: ClaudeModelInfo = {
  thinking: 'adaptive-only',
  preservedThinking: true,
  toolChanges: true,
  effort: true,
  forcedToolChoice: false,
};

/** The models before preserved thinking (most without tool changes): each row names its thinking and effort. */
const classic = { preservedThinking: false, toolChanges: false, forcedToolChoice: true } as const;

/**
 * The Claude models the adapter knows, by id. An id with a date suffix (`claude-opus-5-5-20261001`)
 * is its row's model; an id not in the table gets no defaults and no checks (every option is sent
 * as given, and the API decides).
 */
export const CLAUDE_MODELS: Readonly<Record<string, Readonly<ClaudeModelRow>>> = {
  'claude-fable-5-2': { ...preserved, price: 'claude-fable-5-2' },
  'claude-mythos-5-2': { ...preserved, price: 'claude-mythos-5-2' },
  'claude-fable-5-1': { ...preserved, price: 'claude-fable-5-1' },
  'claude-mythos-5-1': { ...preserved, price: 'claude-mythos-5-1' },
  'claude-opus-5-5': { ...preserved, price: 'claude-opus-5-5' },
  'claude-sonnet-5-5': { ...preserved, betweenTools: true, price: 'claude-sonnet-5-5' },
  'claude-haiku-5-5': { ...preserved, betweenTools: true, price: 'claude-haiku-5-5' },
  'claude-fable-5': { ...preserved, preservedThinking: false, forcedToolChoice: true, price: 'claude-fable-5' },
  'claude-mythos-5': { ...preserved, preservedThinking: false, forcedToolChoice: true, price: 'claude-mythos-5' },
  'claude-opus-5': {
    ...classic,
    toolChanges: true,
    thinking: 'adaptive-or-budget',
    effort: true,
    price: 'claude-opus-5',
  },
  'claude-sonnet-5': { ...classic, thinking: 'adaptive-or-off', effort: true, price: 'claude-sonnet-5' },
  'claude-opus-4-8': {
    ...classic,
    toolChanges: true,
    thinking: 'adaptive-or-off',
    effort: true,
    price: 'claude-opus-4-8',
  },
  'claude-opus-4-7': { ...classic, thinking: 'adaptive-or-off', effort: true, price: 'claude-opus-4-7' },
  'claude-mythos-preview': { ...classic, thinking: 'adaptive-or-off', effort: true, price: 'claude-mythos-preview' },
  'claude-opus-4-6': { ...classic, thinking: 'adaptive-or-budget', effort: true, price: 'claude-opus-4-6' },
  'claude-sonnet-4-6': { ...classic, thinking: 'adaptive-or-budget', effort: true, price: 'claude-sonnet-4-6' },
  'claude-opus-4-5': { ...classic, thinking: 'budget', effort: true, price: 'claude-opus-4-5' },
  'claude-sonnet-4-5': { ...classic, thinking: 'budget', effort: false, price: 'claude-sonnet-4-5' },
  'claude-haiku-4-5': { ...classic, thinking: 'budget', effort: false, price: 'claude-haiku-4-5' },
  'claude-opus-4-1': { ...classic, thinking: 'budget', effort: false, price: 'claude-opus-4-1' },
};

/** The table's id for `model` by core's `listedModel` rule (itself, or dated: `-20261001`); undefined when not in the table. */
export function claudeModelId(model: string): string | undefined {
  return listedModel(model, Object.keys(CLAUDE_MODELS));
}

/** The row of `model` (see {@link CLAUDE_MODELS}), or undefined for a model the table does not know. */
export function claudeModel(model: string): Readonly<ClaudeModelRow> | undefined {
  const id = claudeModelId(model);
  return id === undefined ? undefined : CLAUDE_MODELS[id];
}

/**
 * Claude models that take tool changes inside the conversation (`tool_addition` / `tool_removal`
 * blocks in `role: "system"` messages): the rows of {@link CLAUDE_MODELS} with `toolChanges`. Ids
 * match exactly or with a date suffix (`claude-opus-4-8-20260528`).
 */
export const TOOL_CHANGE_MODELS: readonly string[] = Object.keys(CLAUDE_MODELS).filter(
  (id) => CLAUDE_MODELS[id].toolChanges,
);

/** Whether `model` takes tool changes inside the conversation (see {@link TOOL_CHANGE_MODELS}). */
export function supportsToolChanges(model: string): boolean {
  return claudeModel(model)?.toolChanges === true;
}

/** Whether `model` binds its thinking to the exact prefix of the request, so that it needs append-only requests. */
export function bindsPrefix(model: string): boolean {
  return claudeModel(model)?.preservedThinking === true;
}

/**
 * The `max_tokens` a request carries when `maxTokens` is not given: 16 000 for a model that thinks on
 * every call (its thinking counts toward `max_tokens`, and 4 096 would cut a long thought off before
 * the answer), else 4 096.
 */
export function defaultMaxTokens(model: string): number {
  return claudeModel(model)?.thinking === 'adaptive-only' ? 16_000 : 4096;
}
