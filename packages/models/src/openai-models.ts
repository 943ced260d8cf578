/**
 * What each OpenAI model does with reasoning: whether it reasons (and whether that can be turned
 * off), whether Chat Completions refuses function tools while it reasons, and whether its reasoning
 * is bound to the exact prefix before it. One table, read by the adapter (the request's `include`,
 * the checks on Chat Completions, `Model.appendOnly`) and shown by docs/models.md.
 *
 * Sources: the model ids of the `openai` SDK 6.49.0; OpenAI's reasoning guide (which models reason
 * by default and which take `reasoning_effort: 'none'`); the Chat Completions refusal
 * (`Function tools with reasoning_effort are not supported for gpt-5.6 in /v1/chat/completions. To
 * use function tools, use /v1/responses or set reasoning_effort to 'none'`, GPT-5.4 and later); the
 * guide "Keep the prefix unchanged" (newer frontier models drop reasoning items that follow a prefix
 * change; it names no list, so the frontier models from GPT-5.4 on, the ones Chat Completions
 * refuses tools with reasoning for, are marked). What each model reads: the models page (every
 * model here takes image input but o3-mini, which takes text only; PDFs are read on the models
 * with vision).
 *
 * Prices: each row names its entry in core's `PRICES` (`price`); see `ModelPricing`. Each entry
 * carries the day its rates are of and where they come from (`asOf`, `source`).
 */
import { listedModel, type ModelAccepts } from '@skilltree/core/provider';
import type { ModelPricing } from './model-pricing.js';

/**
 * How a model reasons:
 * - `none`: it never does (no reasoning items; `reasoningEffort` is refused);
 * - `optional`: not unless asked (its default effort is `none`; `reasoningEffort` turns it on);
 * - `default`: on unless `reasoningEffort: 'none'` turns it off;
 * - `always`: on every call (`'none'` is refused; `'minimal'` or `'low'` is the least).
 */
export type OpenAIReasoning = 'none' | 'optional' | 'default' | 'always';

/** What an OpenAI model does with reasoning and files: the capability side of a row of {@link OPENAI_MODELS}. */
export interface OpenAIModelInfo {
  /** Whether and how the model reasons. */
  reasoning: OpenAIReasoning;
  /**
   * Chat Completions refuses function tools with reasoning on (any effort but `'none'`): such a
   * model takes tools there only with `reasoningEffort: 'none'`, and with reasoning on the Responses
   * API (the default) is the way.
   */
  chatRefusesToolsWithReasoning: boolean;
  /**
   * Each reasoning item is bound to the exact prefix before it (instructions, tools, every earlier
   * item): the API drops the reasoning that follows a change there. The adapter's `Model.appendOnly`
   * is this, when the model reasons (by default, or with `reasoningEffort`), on the Responses API.
   */
  prefixBoundReasoning: boolean;
  /**
   * The files it reads, when it is not every kind the APIs take (images and PDFs): `Model.accepts`
   * is this, and a file of another kind is sent as a line describing it.
   */
  accepts?: ModelAccepts;
}

/** One row of {@link OPENAI_MODELS}: what the model does, and its price or why it has none. */
export type OpenAIModelRow = OpenAIModelInfo & ModelPricing;

const classic: OpenAIModelInfo = {
  reasoning: 'none',
  chatRefusesToolsWithReasoning: false,
  prefixBoundReasoning: false,
};
const oSeries: OpenAIModelInfo = { ...classic, reasoning: 'always' };
const gpt54: OpenAIModelInfo = {
  reasoning: 'optional',
  chatRefusesToolsWithReasoning: true,
  prefixBoundReasoning: true,
};
const bound: OpenAIModelInfo = {
  reasoning: 'default',
  chatRefusesToolsWithReasoning: true,
  prefixBoundReasoning: true,
};

/**
 * The OpenAI models the adapter knows, by id. An id with a date suffix (`gpt-5.4-2026-03-05`) or
 * an `openai/` prefix (a router's name) is its row's model; an id not in the table gets no checks,
 * is not append-only, and asks for encrypted reasoning when it looks like a reasoning model
 * (`o1`…, `gpt-5`…, `gpt-oss`…).
 */
export const OPENAI_MODELS: Readonly<Record<string, Readonly<OpenAIModelRow>>> = {
  'gpt-4o': { ...classic, price: 'gpt-4o' },
  'gpt-4o-mini': { ...classic, price: 'gpt-4o-mini' },
  'gpt-4.1': { ...classic, price: 'gpt-4.1' },
  'gpt-4.1-mini': { ...classic, price: 'gpt-4.1-mini' },
  'gpt-4.1-nano': { ...classic, price: 'gpt-4.1-nano' },
  o1: { ...oSeries, price: 'o1' },
  o3: { ...oSeries, price: 'o3' },
  'o3-mini': { ...oSeries, accepts: { images: false, pdf: false }, price: 'o3-mini' },
  'o4-mini': { ...oSeries, price: 'o4-mini' },
  'gpt-5': { ...oSeries, price: 'gpt-5' },
  'gpt-5-mini': { ...oSeries, price: 'gpt-5-mini' },
  'gpt-5-nano': { ...oSeries, price: 'gpt-5-nano' },
  'gpt-5.1': { ...classic, reasoning: 'optional', price: 'gpt-5.1' },
  'gpt-5.2': { ...classic, reasoning: 'optional', price: 'gpt-5.2' },
  'gpt-5.4': { ...gpt54, price: 'gpt-5.4' },
  'gpt-5.4-mini': { ...gpt54, price: 'gpt-5.4-mini' },
  'gpt-5.4-nano': { ...gpt54, price: 'gpt-5.4-nano' },
  'gpt-5.5': { ...bound, price: 'gpt-5.5' },
  'gpt-5.6': { ...bound, price: 'gpt-5.6' },
  'gpt-5.6-sol': { ...bound, price: 'gpt-5.6-sol' },
  'gpt-5.6-terra': { ...bound, price: 'gpt-5.6-terra' },
  'gpt-5.6-luna': { ...bound, price: 'gpt-5.6-luna' },
};

/** The table's key for a model id (`openai/gpt-5.6`, `gpt-5.4-2026-03-05` → their row, by core's `listedModel`), or undefined. */
export function openaiModelKey(model: string): string | undefined {
  return listedModel(model.replace(/^openai\//, ''), Object.keys(OPENAI_MODELS));
}

/** The row of `model` in {@link OPENAI_MODELS}, or undefined for a model the table does not know. */
export function openaiModelInfo(model: string): Readonly<OpenAIModelRow> | undefined {
  const key = openaiModelKey(model);
  return key === undefined ? undefined : OPENAI_MODELS[key];
}

/**
 * Whether `model` reasons with `effort` (the `reasoningEffort` option, when set): the table's
 * answer, else a guess from the id for models it does not know (`o1`…, `gpt-5`…, `gpt-oss`…), so
 * that their reasoning comes back encrypted and can be replayed.
 */
export function reasonsWith(model: string, effort?: string): boolean {
  if (effort !== undefined) return effort !== 'none';
  const info = openaiModelInfo(model);
  if (info) return info.reasoning === 'default' || info.reasoning === 'always';
  return /^(?:openai\/)?(?:o\d|gpt-5|gpt-oss)/.test(model);
}

/** Whether `model` can reason at all (a row that is not `none`, or an id that looks like a reasoning model). */
export function canReason(model: string): boolean {
  const info = openaiModelInfo(model);
  if (info) return info.reasoning !== 'none';
  return /^(?:openai\/)?(?:o\d|gpt-5|gpt-oss)/.test(model);
}
