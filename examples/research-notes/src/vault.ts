/**
 * Keeping a secret out of the transcript.
 *
 * The wiki token lives in an agent store, wrapped in a {@link Credentials} object. The publish
 * tool acts on it; nothing returns it or renders it. The wrapper makes the usual ways a value
 * leaks harmless: `JSON.stringify` (tool results, `session.snapshot()`), `String()` and template
 * strings, and `console.log`/`util.inspect` all print `[redacted]`. The only way to the token is
 * {@link Credentials.use}, which hands it to a function, e.g. the one that sets an HTTP header.
 */
import { inspect } from 'node:util';
import { createAgentStore } from '@skilltree/core';

const REDACTED = '[redacted]';

export class Credentials {
  readonly #token: string;
  /** A label that is safe to show: the first characters of the token and its length. */
  readonly hint: string;

  constructor(token: string) {
    if (typeof token !== 'string' || token.length < 8) throw new Error('A wiki token has at least 8 characters.');
    this.#token = token;
    this.hint = `${token.slice(0, 3)}… (${token.length} characters)`;
  }

  /** Runs `fn` with the token. Keep what `fn` returns free of it. */
  use<T>(fn: (token: string) => T): T {
    return fn(this.#token);
  }

  /** Replaces every occurrence of the token in `text`, for error messages from the wiki. */
  redact(text: string): string {
    return text.split(this.#token).join(REDACTED);
  }

  toJSON(): string {
    return REDACTED;
  }

  toString(): string {
    return REDACTED;
  }

  [inspect.custom](): string {
    return `Credentials(${REDACTED})`;
  }
}

/** A token for the demo when `RESEARCH_WIKI_TOKEN` is not set: random, so no test can hard-code it. */
function demoToken(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(12));
  return `wk_demo_${Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('')}`;
}

/**
 * The vault. By default it holds `RESEARCH_WIKI_TOKEN` from the environment (or a demo token);
 * an app sets its user's token from code, and the model never sees it:
 *
 * ```ts
 * const session = createSession(<ResearchNotes />, { model });
 * vault.of(session).setState({ credentials: new Credentials(userToken) });
 * ```
 */
export const vault = createAgentStore('research-vault', () => ({
  credentials: new Credentials(process.env.RESEARCH_WIKI_TOKEN || demoToken()) as Credentials | null,
}));
