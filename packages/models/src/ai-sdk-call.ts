/**
 * What the AI SDK adapter sends: its options, and the prompt and call options of one request
 * (`doGenerate` / `doStream`), classic or as deltas.
 */
import type {
  LanguageModelV2,
  LanguageModelV3,
  LanguageModelV3CallOptions,
  LanguageModelV3Message,
  SharedV3ProviderOptions,
} from '@ai-sdk/provider';
import type { ModelRequest } from '@skilltree/core/provider';
import { type ModelAccepts, placeContext } from '@skilltree/core/provider';
import { type AiSdkTarget, appendMessage } from './ai-sdk-parts.js';
import { supportsToolChanges, type ToolChanges } from './anthropic-request.js';
import type { RetryOptions } from './retry.js';

/**
 * A language model of any supported specification version. v4 models are accepted at runtime and
 * called like v3 ones (`@ai-sdk/provider` 3.x has no v4 types).
 */
export type AiSdkLanguageModel =
  | LanguageModelV2
  | LanguageModelV3
  | { readonly specificationVersion: 'v4'; readonly provider: string; readonly modelId: string };

/** Options of `aiSdk()`. */
export interface AiSdkOptions extends RetryOptions {
  /** `maxOutputTokens` of every call. Default: the provider's. */
  maxOutputTokens?: number;
  /** Sampling temperature. Default: the provider's. */
  temperature?: number;
  /** Provider-specific options, passed through as `providerOptions` (e.g. `{ anthropic: { … } }`). */
  providerOptions?: SharedV3ProviderOptions;
  /** Extra HTTP headers for providers that send them. */
  headers?: Record<string, string | undefined>;
  /**
   * Milliseconds one attempt may wait: for `doGenerate` to return; for `doStream` to return and then
   * for each next stream part, so a stream that goes silent fails instead of hanging. The call's
   * `abortSignal` is then aborted (which aborts the provider's HTTP request) and the attempt fails
   * as a retryable network error (not retried once text has been streamed). `Infinity` switches it
   * off. Default 600 000 (ten minutes).
   */
  timeoutMs?: number;
  /**
   * Send the skill lifecycle as deltas through `@ai-sdk/anthropic`'s `toolChanges` (3.0.102 and
   * later): a load is a mid-conversation system message with the skill's text and a `tool_addition`,
   * an unload a `tool_removal`, and skill tools are declared with `deferLoading: true`. `'auto'`
   * (default): for an Anthropic model of `TOOL_CHANGE_MODELS` with the stable window; `true`: for any
   * Anthropic model; `false`: never. Other providers always get the classic layout.
   */
  toolChanges?: ToolChanges;
  /**
   * The kinds of file the model reads, passed on as `Model.accepts` (the specification does not
   * say): `{ images: false, pdf: false }` for a model without vision, whose files the session then
   * sends as lines describing them; `{ audio: true }` for one that takes audio. Default: images and
   * PDFs, no audio.
   */
  accepts?: ModelAccepts;
}

/**
 * Whether a request to `model` goes out as deltas (see {@link AiSdkOptions.toolChanges}): only for
 * Anthropic's provider from specification v3 on, whose `toolChanges` system-message option carries them.
 */
export function aiSdkUsesToolChanges(
  req: ModelRequest,
  model: { provider: string; modelId: string; specificationVersion?: string },
  setting: ToolChanges = 'auto',
): boolean {
  const life = req.lifecycle;
  if (!life || setting === false || !String(model.provider).startsWith('anthropic')) return false;
  // @ai-sdk/anthropic 2.x (specification v2) has no toolChanges option.
  if (model.specificationVersion === 'v2') return false;
  return setting === true || (life.windowMode === 'stable' && supportsToolChanges(String(model.modelId)));
}

type ToolChange = { type: 'tool_addition'; toolName: string } | { type: 'tool_removal'; toolName: string };

/**
 * The prompt and call options sent to `doGenerate` / `doStream` (without `abortSignal`). With
 * `deltas`, the lifecycle's layout: its messages, each delta a system message right after the run of
 * user and tool messages it follows, carrying `providerOptions.anthropic.toolChanges`; the skills'
 * tools declared with `deferLoading: true` after the prefix tools. Files go as `file` parts (and as
 * tool-result content); reasoning goes back only to `target`'s provider and model, with the provider
 * options that provider reads (see `ai-sdk-parts.ts`).
 */
export function aiSdkCallOptions(
  req: ModelRequest,
  options: AiSdkOptions = {},
  deltas = false,
  target: AiSdkTarget = { provider: '', modelId: '', version: 'v3', source: { provider: '', model: '' } },
): LanguageModelV3CallOptions {
  const life = deltas ? req.lifecycle : undefined;
  const placed = placeContext(life ? { ...req, messages: life.messages, context: life.context } : req);
  const prompt: LanguageModelV3Message[] = [];
  if (placed.system) prompt.push({ role: 'system', content: placed.system });
  const deferred = new Map<string, ModelRequest['tools'][number]>();
  const systemAfter = new Map<number, LanguageModelV3Message>();
  for (const delta of life?.deltas ?? []) {
    const toolChanges: ToolChange[] = [];
    for (const entry of delta.entries) {
      const removed = entry.type === 'unloaded' ? entry.tools : entry.type === 'tools' ? entry.removed : [];
      const added = entry.type === 'loaded' ? entry.tools : entry.type === 'tools' ? entry.added : [];
      for (const toolName of removed) toolChanges.push({ type: 'tool_removal', toolName });
      for (const tool of added) {
        deferred.set(tool.name, tool);
        toolChanges.push({ type: 'tool_addition', toolName: tool.name });
      }
    }
    systemAfter.set(delta.after, {
      role: 'system',
      content: delta.text,
      ...(toolChanges.length > 0 ? { providerOptions: { anthropic: { toolChanges } } } : {}),
    });
  }
  for (const [i, message] of placed.messages.entries()) {
    appendMessage(prompt, message, target);
    const system = systemAfter.get(i);
    if (system) prompt.push(system);
  }
  const call: LanguageModelV3CallOptions = { prompt };
  const tools = life ? life.tools : req.tools;
  if (tools.length > 0) {
    call.tools = tools.map((tool) => ({
      type: 'function',
      name: tool.name,
      description: tool.description,
      inputSchema: tool.inputSchema as never,
    }));
    for (const tool of deferred.values()) {
      call.tools.push({
        type: 'function',
        name: tool.name,
        description: tool.description,
        inputSchema: tool.inputSchema as never,
        providerOptions: { anthropic: { deferLoading: true } },
      });
    }
    call.toolChoice = { type: 'auto' };
  }
  if (options.maxOutputTokens !== undefined) call.maxOutputTokens = options.maxOutputTokens;
  if (options.temperature !== undefined) call.temperature = options.temperature;
  if (options.providerOptions) call.providerOptions = options.providerOptions;
  if (options.headers) call.headers = options.headers;
  return call;
}
