/**
 * Keeps secrets out of recordings. API keys and headers never pass through the `Model` interface,
 * but a key can still reach a prompt (a tool that echoes its configuration, a user who pastes one):
 * every string of a recording is scanned for what looks like a key, and for the values of the
 * environment's key variables, and each is replaced (or, with `secrets: 'refuse'`, refused).
 */

/** Rewrites a string of a recording; `path` says where it is, e.g. `request.messages[3].content[0].text`. */
export type Redactor = (text: string, path: string) => string;

/** What to do with a string that looks like a key: replace it with `[redacted:<kind>]`, or refuse to record. */
export type SecretPolicy = 'redact' | 'refuse';

/** Shapes of keys and tokens, most specific first. */
const PATTERNS: readonly (readonly [kind: string, pattern: RegExp])[] = [
  ['private-key', /-----BEGIN [A-Z ]*PRIVATE KEY-----[\s\S]*?-----END [A-Z ]*PRIVATE KEY-----/g],
  ['anthropic-key', /\bsk-ant-[A-Za-z0-9_-]{16,}/g],
  ['openai-key', /\bsk-(?:proj-|svcacct-|admin-)?[A-Za-z0-9_-]{20,}/g],
  ['aws-access-key', /\b(?:AKIA|ASIA)[0-9A-Z]{16}\b/g],
  ['github-token', /\b(?:gh[pousr]_[A-Za-z0-9]{30,}|github_pat_[A-Za-z0-9_]{40,})/g],
  ['slack-token', /\bxox[abposr]-[A-Za-z0-9-]{10,}/g],
  ['google-api-key', /\bAIza[0-9A-Za-z_-]{35}/g],
  ['jwt', /\beyJ[A-Za-z0-9_-]{8,}\.eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}/g],
  ['bearer-token', /\bBearer\s+[A-Za-z0-9._~+/-]{20,}=*/g],
];

/** Environment variables whose values are secrets. */
const SECRET_NAME = /(?:^|_)(?:API_?KEY|KEY|TOKEN|SECRET|PASSWORD|PASSWD|CREDENTIALS?)$/i;

/** The values of the environment's secret variables (8 characters or longer), longest first. */
export function environmentSecrets(env: Record<string, string | undefined> = process.env): [string, string][] {
  return Object.entries(env)
    .filter((e): e is [string, string] => SECRET_NAME.test(e[0]) && typeof e[1] === 'string' && e[1].length >= 8)
    .sort((a, b) => b[1].length - a[1].length);
}

/** A string that looked like a secret. */
export interface SecretFinding {
  path: string;
  kind: string;
}

/** A scanner that replaces secrets in one string and records what it found. */
export function secretScanner(env: Record<string, string | undefined> = process.env) {
  const values = environmentSecrets(env);
  return (text: string, path: string, found: SecretFinding[]): string => {
    let out = text;
    for (const [name, value] of values) {
      if (!out.includes(value)) continue;
      found.push({ path, kind: `$${name}` });
      out = out.split(value).join(`[redacted:$${name}]`);
    }
    for (const [kind, pattern] of PATTERNS) {
      out = out.replace(pattern, () => {
        found.push({ path, kind });
        return `[redacted:${kind}]`;
      });
    }
    // A `.env` line gives its secret away by its name, whatever shape the value has.
    out = out.replace(ASSIGNMENT, (line, head: string, name: string, quote: string, value: string) => {
      if (!SECRET_NAME.test(name) || value.length < 4 || value.startsWith('[redacted:')) return line;
      found.push({ path, kind: `$${name}` });
      return `${head}${quote}[redacted:$${name}]${quote}`;
    });
    return out;
  };
}

const key = (k: string) => (/^[A-Za-z_$][\w$]*$/.test(k) ? `.${k}` : `[${JSON.stringify(k)}]`);

/**
 * Applies `fn` to every string of a JSON value, object keys included (a key can hold a secret as
 * well as a value can), with its path. A file part's bytes (base64 `data`) that are text (see
 * {@link isTextFile}) are decoded, passed through `fn`, and encoded again: an attached `.env` or
 * log is scanned as what it says, not as base64.
 */
export function mapStrings(value: unknown, fn: (text: string, path: string) => string, path = ''): unknown {
  if (typeof value === 'string') return fn(value, path);
  if (Array.isArray(value)) return value.map((item, i) => mapStrings(item, fn, `${path}[${i}]`));
  if (value !== null && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    const file = isTextFile(value as Record<string, unknown>);
    for (const [k, v] of Object.entries(value)) {
      const where = path ? `${path}${key(k)}` : k;
      const name = fn(k, `${where}(key)`);
      if (file && k === 'data' && typeof v === 'string') {
        const text = Buffer.from(v, 'base64').toString('utf8');
        const clean = fn(text, `${where}(text)`);
        out[name] = clean === text ? v : Buffer.from(clean, 'utf8').toString('base64');
      } else out[name] = mapStrings(v, fn, where);
    }
    return out;
  }
  return value;
}

/** Media types whose bytes are text, beyond `text/*`. */
const TEXT_TYPES =
  /^(?:text\/|application\/(?:json|xml|yaml|x-yaml|toml|x-toml|javascript|x-sh|x-shellscript|x-env|sql|graphql|x-ndjson|ld\+json)\b)|\+(?:json|xml)\b/i;
/** File names that hold settings, keys and credentials: `.env` and its variants, keys, configs. */
const SECRET_FILE = /(?:^|[\\/])\.env(?:\.[\w.-]+)?$|\.(?:env|pem|key|ini|cfg|conf|properties|npmrc|netrc|pgpass)$/i;

/** Whether `part` is a file part whose base64 `data` is text: by its media type or its name. */
export function isTextFile(part: Record<string, unknown>): boolean {
  if (part.type !== 'file' || typeof part.data !== 'string') return false;
  if (typeof part.mediaType === 'string' && TEXT_TYPES.test(part.mediaType)) return true;
  return typeof part.filename === 'string' && SECRET_FILE.test(part.filename);
}

/** `NAME=value` lines (a `.env` file, a shell export) whose name says the value is a secret. */
const ASSIGNMENT = /^(\s*(?:export\s+)?([A-Za-z_][A-Za-z0-9_.-]*)\s*=\s*)(["']?)([^\r\n]*?)\3\s*$/gm;

/** Options that say how a recording is cleaned. */
export interface CleanOptions {
  /** Your own rewrite of every string (runs first): e.g. replace customer emails. */
  redact?: Redactor;
  /** Default `'redact'`. */
  secrets?: SecretPolicy;
  /** The environment whose key variables' values are secrets. Default `process.env`. */
  env?: Record<string, string | undefined>;
}

/**
 * A cleaner for JSON values: your redactor, then the secret scan. With `secrets: 'refuse'`, a value
 * that holds a secret throws an error naming where, and nothing is written.
 */
export function cleaner(options: CleanOptions = {}): <T>(value: T, path: string) => T {
  const scan = secretScanner(options.env);
  return <T>(value: T, path: string): T => {
    const found: SecretFinding[] = [];
    const out = mapStrings(
      value,
      (text, where) => scan(options.redact ? options.redact(text, where) : text, where, found),
      path,
    );
    if (found.length > 0 && options.secrets === 'refuse') {
      throw new Error(
        `The recording would hold what looks like a secret (${found[0].kind}) at ${found[0].path}; nothing was written. ` +
          "Keep it out of the conversation, rewrite it with a redact hook, or record with secrets: 'redact'.",
      );
    }
    return out as T;
  };
}
