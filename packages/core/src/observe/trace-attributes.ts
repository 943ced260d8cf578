import { textOf } from '../parts/message-parts.js';
import type { Message } from '../types/messages.js';
import type { Model, Usage } from '../types/model.js';
import type { TelemetryAttributeValue } from '../types/options.js';
import type { RequestAttribution } from '../types/request.js';
import type { Tracing } from '../types/telemetry.js';
import { estimateCost, priceFor } from './cost.js';
import { parseModelName } from './model-name.js';

// ───────────────────────────── attributes ─────────────────────────────

/**
 * Provider and model of a model's `name`: `anthropic:claude-sonnet-4-5` → `anthropic`,
 * `claude-sonnet-4-5`; `ai-sdk:openai.chat:gpt-4o` → `openai`, `gpt-4o`; a name without a provider
 * names both.
 */
export function modelIdentity(name: string | undefined): { provider: string; model: string } {
  const full = name || 'unknown';
  const { provider, model } = parseModelName(full);
  return { provider: provider ?? full, model };
}

export function usageAttributes(
  usage: Usage | undefined,
  modelName: string | undefined,
): Record<string, TelemetryAttributeValue> {
  if (!usage) return {};
  const out: Record<string, TelemetryAttributeValue> = {};
  if (usage.inputTokens !== undefined) out['gen_ai.usage.input_tokens'] = usage.inputTokens;
  if (usage.outputTokens !== undefined) out['gen_ai.usage.output_tokens'] = usage.outputTokens;
  if (usage.cacheReadTokens !== undefined) out['gen_ai.usage.cache_read.input_tokens'] = usage.cacheReadTokens;
  if (usage.cacheWriteTokens !== undefined) out['gen_ai.usage.cache_creation.input_tokens'] = usage.cacheWriteTokens;
  if (usage.reasoningTokens !== undefined) out['gen_ai.usage.reasoning.output_tokens'] = usage.reasoningTokens;
  if (usage.estimated) out['skilltree.usage.estimated'] = true;
  const price = modelName ? priceFor(modelName) : undefined;
  if (price) out['skilltree.cost.usd'] = estimateCost(usage, price).total;
  return out;
}

/**
 * What each part of the request costs, in tokens (`request.attribution`): `skilltree.attribution.total`,
 * `.instructions`, `.text`, `.tools`, `.catalog`, `.transcript`, `.machinery`, and for each loaded
 * skill `skilltree.attribution.skills.<name>.instructions`, `.text`, `.tools` and `.total`.
 */
export function attributionAttributes(
  attribution: RequestAttribution | undefined,
): Record<string, TelemetryAttributeValue> {
  if (!attribution) return {};
  const out: Record<string, TelemetryAttributeValue> = {
    'skilltree.attribution.total': attribution.total,
    'skilltree.attribution.instructions': attribution.instructions,
    'skilltree.attribution.text': attribution.text,
    'skilltree.attribution.tools': attribution.tools,
    'skilltree.attribution.catalog': attribution.catalog,
    'skilltree.attribution.transcript': attribution.transcript,
    'skilltree.attribution.machinery': attribution.machinery,
    'skilltree.attribution.counted': attribution.counted,
  };
  for (const [name, cost] of Object.entries(attribution.skills)) {
    const key = `skilltree.attribution.skills.${name}`;
    out[`${key}.instructions`] = cost.instructions;
    out[`${key}.text`] = cost.text;
    out[`${key}.tools`] = cost.tools;
    out[`${key}.total`] = cost.total;
  }
  return out;
}

export function genAiText(content: string) {
  return { type: 'text', content };
}

/** A message in the GenAI conventions' JSON message format. */
export function genAiMessage(message: Message): object {
  if (message.role === 'tool') {
    return {
      role: 'tool',
      parts: [{ type: 'tool_call_response', id: message.toolCallId, response: textOf(message) }],
    };
  }
  const parts: object[] = [];
  for (const part of message.content) {
    // The GenAI conventions' reasoning part; signatures and encrypted content stay out of traces.
    if (part.type === 'reasoning' && part.text) parts.push({ type: 'reasoning', content: part.text });
  }
  const text = textOf(message);
  if (text) parts.push(genAiText(text));
  if (message.role === 'assistant') {
    for (const call of message.toolCalls ?? []) {
      parts.push({ type: 'tool_call', id: call.id, name: call.name, arguments: call.input });
    }
  }
  return { role: message.role, parts };
}

export function agentAttributes(tracing: Tracing, model: Model): Record<string, TelemetryAttributeValue> {
  const { provider, model: requested } = modelIdentity(model.name);
  const out: Record<string, TelemetryAttributeValue> = {
    'gen_ai.operation.name': 'invoke_agent',
    'gen_ai.provider.name': provider,
    'gen_ai.request.model': requested,
  };
  if (tracing.agentName) out['gen_ai.agent.name'] = tracing.agentName;
  return out;
}
