/**
 * Model names, read by one set of rules: `provider:model` (as `Model.name` and `--model` write
 * them), and dated model ids (`claude-opus-5-5-20261001` is `claude-opus-5-5`). Cost, traces and
 * the adapters' model tables all read names here, so they agree.
 */

/** An adapter that wraps other providers names the wrapped one second: `ai-sdk:anthropic.messages:claude-…`. */
const WRAPPERS = ['ai-sdk'];

/**
 * A model name read: the provider before the first colon, the model id after it (a model id may
 * itself hold colons: `openai:qwen3:8b` is `qwen3:8b` at `openai`). A wrapping adapter's name
 * (`ai-sdk:anthropic.messages:claude-sonnet-4-5`) names the wrapped provider (`anthropic`, its
 * provider id before the first dot). A name without a colon is a model id alone.
 *
 * @example
 * parseModelName('anthropic:claude-sonnet-4-5'); // { provider: 'anthropic', model: 'claude-sonnet-4-5' }
 */
export function parseModelName(name: string): { provider?: string; model: string } {
  const colon = name.indexOf(':');
  if (colon === -1) return { model: name };
  const provider = name.slice(0, colon);
  const rest = name.slice(colon + 1);
  const inner = rest.indexOf(':');
  if (WRAPPERS.includes(provider) && inner !== -1) {
    return { provider: rest.slice(0, inner).split('.')[0] || provider, model: rest.slice(inner + 1) };
  }
  return { provider, model: rest };
}

/** What may follow a listed name in a dated id: `-20250929`, `-2025-04-14`, `@20250929`, `-latest`. */
const DATED = /^[-@](?:\d{8}|\d{4}-\d{2}-\d{2}|latest)$/;

/**
 * The name in `listed` a model id is: the id itself, or a listed name followed by a date or
 * `latest` (`claude-opus-5-5-20261001`, `gpt-4.1-2025-04-14`, `claude-sonnet-4-5@20250929`); the
 * longest such name wins. A variant is not its base model: `gpt-4o-mini` is not `gpt-4o`. Undefined
 * when none is. Every model table (prices, capabilities) finds its row by this rule.
 *
 * @example
 * listedModel('claude-opus-5-5-20261001', ['claude-opus-5', 'claude-opus-5-5']); // 'claude-opus-5-5'
 */
export function listedModel(id: string, listed: Iterable<string>): string | undefined {
  let best: string | undefined;
  for (const name of listed) {
    if (id !== name && !(id.startsWith(name) && DATED.test(id.slice(name.length)))) continue;
    if (!best || name.length > best.length) best = name;
  }
  return best;
}
