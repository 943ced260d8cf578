/**
 * Reasoning parts: the one rule that decides where a part is sent back ({@link replaysTo}), and the
 * check (with the upgrade of records written before payloads existed) every part from outside
 * passes through.
 */
import type { Message, ReasoningPart, ReasoningSource } from '../types/messages.js';

/**
 * Whether `part` is sent back to `to`: only to the provider, endpoint and model that produced it. A
 * signature or an encrypted item is bound to them; another provider (or another server speaking the
 * same API, or another model) would refuse it or, worse, read it. A part whose model is unknown is
 * never sent. Every adapter and core's request building ask this, and only this.
 */
export function replaysTo(part: ReasoningPart, to: ReasoningSource): boolean {
  return (
    part.model !== '' &&
    part.provider === to.provider &&
    (part.endpoint ?? '') === (to.endpoint ?? '') &&
    part.model === to.model
  );
}

/** The provider fields reasoning records carried at the top before `providerData` (in the order they were written). */
const LEGACY_FIELDS = ['signature', 'redactedData', 'encryptedContent', 'itemId'] as const;

/**
 * A reasoning record as today's shape: the fields written at the top before payloads existed
 * (`signature`, `redactedData`, `encryptedContent`, `itemId`) move into `providerData`, where the
 * adapters that wrote them read them now. Anything else is left as it is.
 */
export function upgradeReasoning(raw: Record<string, unknown>): Record<string, unknown> {
  if (!LEGACY_FIELDS.some((key) => key in raw)) return raw;
  const out: Record<string, unknown> = {};
  const data: Record<string, unknown> = isRecord(raw.providerData) ? { ...raw.providerData } : {};
  for (const [key, value] of Object.entries(raw)) {
    if ((LEGACY_FIELDS as readonly string[]).includes(key)) {
      if (typeof value === 'string') data[key] = value;
    } else out[key] = value;
  }
  if (Object.keys(data).length > 0) out.providerData = data;
  return out;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

/**
 * A reasoning part from a model or a record, checked (and upgraded, see {@link upgradeReasoning}):
 * a provider, text and model (strings; a record without a model gets `''`, which is never sent
 * back), an endpoint when it has one, and its payload as an object, copied as it is (a signature is
 * replayed byte-exact). Null when it is not one.
 */
export function cleanReasoning(raw: unknown): ReasoningPart | null {
  if (!isRecord(raw)) return null;
  const r = upgradeReasoning(raw);
  if (typeof r.provider !== 'string' || (r.text !== undefined && typeof r.text !== 'string')) return null;
  if (r.model !== undefined && typeof r.model !== 'string') return null;
  const out: ReasoningPart = {
    type: 'reasoning',
    provider: r.provider,
    model: (r.model as string | undefined) ?? '',
    text: (r.text as string | undefined) ?? '',
  };
  if (typeof r.endpoint === 'string' && r.endpoint !== '') out.endpoint = r.endpoint;
  if (isRecord(r.providerData)) out.providerData = r.providerData;
  return out;
}

/** `message` without its reasoning parts (the same object when it has none). */
function stripped(message: Message, keep: (part: ReasoningPart) => boolean): Message {
  if (message.role !== 'assistant' || !message.content.some((p) => p.type === 'reasoning' && !keep(p))) return message;
  return { ...message, content: message.content.filter((p) => p.type !== 'reasoning' || keep(p)) };
}

const withoutAll = new WeakMap<Message, Message>();
const forSource = new WeakMap<Message, { key: string; out: Message }>();

/**
 * `message` as it is sent to `to`: its reasoning parts that do not {@link replaysTo} it left out
 * (all of them when `to` is null). Messages are never changed in place, so the result is cached per
 * message: a long transcript costs a look-up per message per request, not a copy.
 */
export function replayableTo(message: Message, to: ReasoningSource | null): Message {
  if (message.role !== 'assistant') return message;
  if (to === null) {
    const known = withoutAll.get(message);
    if (known) return known;
    const out = stripped(message, () => false);
    withoutAll.set(message, out);
    return out;
  }
  const key = JSON.stringify([to.provider, to.endpoint ?? '', to.model]);
  const cached = forSource.get(message);
  if (cached?.key === key) return cached.out;
  const out = stripped(message, (part) => replaysTo(part, to));
  forSource.set(message, { key, out });
  return out;
}
