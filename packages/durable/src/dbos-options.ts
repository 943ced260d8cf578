/**
 * The checks `dbosEngine` runs on what it is given before DBOS sees any of it. DBOS puts the schema
 * name into SQL between double quotes (`"<schema>".workflow_status`), and the executor id into each
 * connection's `application_name`: a quote, a NUL or a name PostgreSQL would fold or cut would
 * reach the database as written. A wait id comes back from a chat's state (hostile, see core's
 * durable-wait-binding.ts) and names the workflow and topic `DBOS.send` writes to: one that is not
 * a wait of this engine is refused here, naming the rule, never sent.
 */

/** What separates a wait's workflow from its topic in the wait's id (`<workflow>#wait:<name>`). */
export const WAIT_TOPIC = '#wait:';

/** PostgreSQL's identifier limit (NAMEDATALEN − 1 bytes): longer names are cut without a word. */
const MAX_IDENTIFIER = 63;
/** The longest executor id or application name taken (they are logged and stored as values). */
const MAX_NAME = 100;
/** The longest wait id taken: a turn id (each answered wait of a chat adds ~30 characters) and a topic. */
const MAX_WAIT_ID = 8_192;

/** The options `checkDbosOptions` reads (those of `dbosEngine` that reach SQL or the database's logs). */
interface NamedOptions {
  schema?: unknown;
  executorId?: unknown;
  appName?: unknown;
}

/**
 * Checks the names of `dbosEngine`'s options. `schema`: a PostgreSQL identifier that needs no
 * quoting (lower-case ASCII letters, digits and `_`, not starting with a digit or `pg_`, at most
 * 63 characters). `executorId` and `appName`: 1 to 100 characters, none of them a control
 * character. Throws a TypeError naming the option, the rule and an example.
 */
export function checkDbosOptions(options: NamedOptions): void {
  const { schema, executorId, appName } = options;
  if (schema !== undefined) {
    const shown = typeof schema === 'string' ? JSON.stringify(schema.slice(0, 80)) : `(${typeof schema})`;
    if (
      typeof schema !== 'string' ||
      schema.length > MAX_IDENTIFIER ||
      !/^[a-z_][a-z0-9_]*$/.test(schema) ||
      schema.startsWith('pg_')
    ) {
      throw new TypeError(
        `dbosEngine: schema ${shown} is not a plain PostgreSQL schema name: use 1 to ${MAX_IDENTIFIER} lower-case ASCII letters, digits and underscores, starting with a letter or underscore (not pg_), e.g. { schema: 'skilltree_dbos' }.`,
      );
    }
  }
  checkName('executorId', executorId, "{ executorId: process.env.HOSTNAME ?? 'worker-1' }");
  checkName('appName', appName, "{ appName: 'shop' }");
}

function checkName(option: string, value: unknown, example: string): void {
  if (value === undefined) return;
  if (typeof value !== 'string' || value.length === 0 || value.length > MAX_NAME || /\p{Cc}|\p{Cs}/u.test(value)) {
    const shown = typeof value === 'string' ? JSON.stringify(value.slice(0, 80)) : `(${typeof value})`;
    throw new TypeError(
      `dbosEngine: ${option} ${shown} must be 1 to ${MAX_NAME} characters without control characters (NUL, line breaks…), e.g. ${example}.`,
    );
  }
}

/**
 * The workflow and topic wait id `waitId` names (`<workflow>#wait:<name>`, as this engine's `wait`
 * makes it). Anything else (not a string, no `#wait:` or two of them, a control character, an
 * empty part, longer than 8,192 characters) throws an Error naming the id and the rule.
 */
export function waitTarget(waitId: unknown): { workflow: string; topic: string } {
  const shown = typeof waitId === 'string' ? JSON.stringify(waitId.slice(0, 80)) : `(${typeof waitId})`;
  const refuse = (why: string) =>
    new Error(
      `dbosEngine: ${shown} names no wait of this engine (${why}); pass the id wait() gave, as the chat's state keeps it.`,
    );
  if (typeof waitId !== 'string') throw refuse('not a string');
  if (waitId.length > MAX_WAIT_ID) throw refuse(`${waitId.length} characters, more than ${MAX_WAIT_ID}`);
  if (/\p{Cc}|\p{Cs}/u.test(waitId)) throw refuse('it holds a control character');
  const at = waitId.indexOf(WAIT_TOPIC);
  if (at < 0 || waitId.indexOf(WAIT_TOPIC, at + 1) >= 0) throw refuse(`a wait id holds "${WAIT_TOPIC}" once`);
  const workflow = waitId.slice(0, at);
  const topic = waitId.slice(at + WAIT_TOPIC.length);
  if (!workflow || !topic) throw refuse('its workflow or its topic is empty');
  return { workflow, topic };
}
