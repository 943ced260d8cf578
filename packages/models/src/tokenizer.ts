/**
 * `@skilltree/models/tokenizer`: exact token counts for OpenAI models, for `maxTranscriptTokens`.
 *
 * Core counts the window's tokens with a fast estimate (4 characters per token) unless a session is
 * given a `tokenizer`. For OpenAI models, {@link openaiTokenizer} counts exactly, with the model's own
 * byte-pair encoding from `gpt-tokenizer` (4.x), an optional peer dependency: install it next to
 * `@skilltree/models` to use this entry point. The encoding's tables (1–2 MB) load on the first
 * `openaiTokenizer()` call for that encoding, never when the package is imported.
 *
 * @packageDocumentation
 */
import { createRequire } from 'node:module';
import { parseModelName, type Tokenizer } from '@skilltree/core/provider';

/** The byte-pair encodings OpenAI models use. */
export type OpenAIEncoding = 'o200k_base' | 'o200k_harmony' | 'cl100k_base' | 'p50k_base' | 'p50k_edit' | 'r50k_base';

const ENCODINGS: readonly string[] = [
  'o200k_base',
  'o200k_harmony',
  'cl100k_base',
  'p50k_base',
  'p50k_edit',
  'r50k_base',
] satisfies OpenAIEncoding[];

/** The model OpenAI's current models share an encoding with; the default of {@link openaiTokenizer}. */
const DEFAULT_MODEL = 'gpt-4o';

interface Encoding {
  countTokens(text: string, options?: { disallowedSpecial?: Set<string> }): number;
}

const require = createRequire(import.meta.url);
const loaded = new Map<OpenAIEncoding, Encoding>();

function load<T>(specifier: string): T {
  try {
    return require(specifier) as T;
  } catch (error) {
    if ((error as { code?: string }).code === 'MODULE_NOT_FOUND' && String(error).includes('gpt-tokenizer')) {
      throw new Error(
        'openaiTokenizer() needs the optional peer dependency gpt-tokenizer (4.x): install it with `npm install gpt-tokenizer@4`, or leave `tokenizer` unset to use the built-in estimate.',
      );
    }
    throw error;
  }
}

/**
 * The encoding a model uses: `gpt-tokenizer`'s table for the models it lists (GPT-4, GPT-3.5 and
 * older use `cl100k_base` or earlier), and `o200k_base` for everything newer (GPT-4o, GPT-4.1,
 * GPT-5, the o-series) and for names it does not know. A provider prefix (`openai:`) is ignored,
 * and an encoding name is returned as it is.
 */
export function openaiEncoding(model: string = DEFAULT_MODEL): OpenAIEncoding {
  const name = parseModelName(model).model;
  if (ENCODINGS.includes(name)) return name as OpenAIEncoding;
  const { modelToEncodingMap } = load<{ modelToEncodingMap: Record<string, OpenAIEncoding> }>('gpt-tokenizer/mapping');
  const known = modelToEncodingMap[name];
  if (known) return known;
  // Snapshots the table does not list, e.g. gpt-4-32k-0613: the GPT-4 and GPT-3.5 families are cl100k.
  // (gpt-4o and gpt-4.1 do not match: the character after "gpt-4" is not a dash.)
  if (/^gpt-(3\.5|4)(-|$)/.test(name)) return 'cl100k_base';
  return 'o200k_base';
}

/** Special tokens such as `<|endoftext|>` in message text are text to the API: count them as text. */
const AS_TEXT = { disallowedSpecial: new Set<string>() };

/**
 * A tokenizer for `createSession({ tokenizer })` that counts exactly what an OpenAI model counts for a
 * piece of text, with the model's encoding (see {@link openaiEncoding}). `model` is a model id such
 * as `gpt-4.1-mini` (default `gpt-4o`, i.e. `o200k_base`) or an encoding name. Text that looks like a
 * special token is counted as ordinary text, as the API does with message content.
 *
 * Core adds a few tokens of framing per message itself; this counts the text only, and core caches
 * each message's count, so a message is counted once.
 *
 * @throws when `gpt-tokenizer` is not installed.
 *
 * @example
 * import { openaiTokenizer } from '@skilltree/models/tokenizer';
 * const session = createSession(<Agent />, { maxTranscriptTokens: 30_000, tokenizer: openaiTokenizer('gpt-4.1') });
 */
export function openaiTokenizer(model?: string): Tokenizer {
  const encoding = openaiEncoding(model);
  let api = loaded.get(encoding);
  if (!api) {
    api = load<Encoding>(`gpt-tokenizer/encoding/${encoding}`);
    loaded.set(encoding, api);
  }
  const counter = api;
  return (text) => (text ? counter.countTokens(text, AS_TEXT) : 0);
}
