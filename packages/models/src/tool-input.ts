/**
 * Tool arguments in both directions: JSON text from a model into a tool call's `input`, and a
 * recorded `input` back into what a provider expects in an assistant message.
 */

/**
 * Parses tool arguments that arrive as JSON text. Empty text is `{}`. Text that is not valid JSON is
 * returned as it is: core then answers the call with a clear error result instead of crashing.
 */
export function parseToolArguments(raw: unknown): unknown {
  if (raw == null) return {};
  if (typeof raw !== 'string') return raw;
  if (raw.trim() === '') return {};
  try {
    return JSON.parse(raw);
  } catch {
    return raw;
  }
}

/**
 * A recorded tool input as a JSON object, for providers that require one (Anthropic's `tool_use.input`,
 * AI SDK tool-call parts). A raw string (arguments that were not valid JSON) is parsed if it can be;
 * otherwise the call is sent with `{}`, and its result (an error saying the JSON was invalid) tells
 * the model what happened.
 */
export function toolInputObject(input: unknown): Record<string, unknown> {
  const value = typeof input === 'string' ? parseToolArguments(input) : input;
  return value && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
}

/** A recorded tool input as JSON text (OpenAI's `arguments`). A raw string is sent back unchanged. */
export function toolInputJson(input: unknown): string {
  if (typeof input === 'string') return input;
  return JSON.stringify(input ?? {});
}
