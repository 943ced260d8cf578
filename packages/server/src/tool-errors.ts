/**
 * Which tool errors an end user may read. A tool's error result is written for the model: a thrown
 * error's message (a driver error with a host, a user name, a path) goes into the transcript as
 * `Tool "x" failed: …`, because the model needs it. The browser gets it only when skilltree wrote the
 * text itself about the model's call (unknown tool or skill, arguments that are not JSON) or about
 * what became of it (not run, interrupted, not saved); anything that came out of running the tool or
 * the agent is replaced by a sentence that names the tool. The input schema's own messages are the
 * app's text too (`.refine(…, 'Order 7 belongs to alice@example.com')`), and the text cannot tell
 * them from zod's: a refusal by the schema reaches users as a sentence that names the tool.
 */

/** A tool's error result, as the model got it; what `onToolError` and {@link ToolErrorText} receive. */
export interface ToolError {
  /** The error text the model got (the tool message, without its `contextChanged` lines). */
  message: string;
  /** The tool the model called. */
  toolName: string;
  /** The call's id. */
  toolCallId: string;
  /**
   * Whether skilltree wrote `message` itself about the model's call and it carries nothing from the
   * server or the app (see {@link isToolErrorForUsers}); the default shows these and replaces the rest.
   */
  forUsers: boolean;
}

/** The text the end user sees for a tool's error result, in the UI stream and in `GET /chat/:id`. */
export type ToolErrorText = (error: ToolError) => string;

/**
 * The one-line texts skilltree writes about a model's call, which carry only the model's own input
 * and the agent's tool and skill names, or say what became of the call (not run, interrupted, run
 * but not saved: never the store's error). Anything else (`Tool "x" failed: …`, a timeout, a result that
 * is not valid, a skill that broke, a schema that threw, the schema's own messages) may carry what
 * the tool or the app wrote.
 */
const FOR_USERS: readonly RegExp[] = [
  /^Unknown tool: /,
  /^Unknown skill: /,
  /^Invalid input for tool "[^"]*": the arguments are not valid JSON \(/,
  /^Invalid input for tool "[^"]*": it takes no arguments; call it with \{\}\.$/,
  /^Not run: /,
  /^Interrupted: /,
  /^Tool "[^"]*" ran, but its result could not be saved\. /,
];

/** A refusal by the tool's input schema: its issues, whose messages may be the app's (refinements). */
const SCHEMA_REFUSAL =
  /^Invalid input for tool "[^"]*": (?!the schema threw|the arguments are not valid JSON \(|it takes no arguments;)/;

/**
 * Whether a tool's error text is meant for end users: one line that skilltree wrote about the model's
 * call (`Unknown tool: …`, `Unknown skill: …`, `Invalid input for tool "x": the arguments are not
 * valid JSON (…)` or `…: it takes no arguments; …`, `Not run: …`, `Interrupted: …`, `Tool "x" ran, but
 * its result could not be saved. …`). Every other error text is not: a thrown error, a timeout, a
 * schema that threw, more lines appended after a call, and a refusal by the input schema (its issue
 * messages may be the app's own, from a refinement; {@link defaultToolErrorText} shows
 * {@link invalidInputForUsers} for it).
 *
 * @example
 * isToolErrorForUsers('Unknown tool: refund (did you mean "refund_order"?). Tools available now: read_skill.'); // true
 * isToolErrorForUsers('Tool "orders" failed: connect ECONNREFUSED db.internal:5432'); // false
 * isToolErrorForUsers('Invalid input for tool "refund": order: Order 7 belongs to bob@example.com'); // false
 */
export function isToolErrorForUsers(text: string): boolean {
  return !/[\r\n]/.test(text) && FOR_USERS.some((rule) => rule.test(text));
}

/** Whether a tool's error text is the input schema's refusal of the model's input (one line). */
export function isSchemaRefusal(text: string): boolean {
  return !/[\r\n]/.test(text) && SCHEMA_REFUSAL.test(text);
}

/** The sentence an end user sees instead of a tool's error text that is not meant for them. */
export function redactedToolError(toolName: string): string {
  return `Tool "${toolName}" failed; the details stay on the server.`;
}

/**
 * The sentence an end user sees for the input schema's refusal of a call: that the input was not
 * valid, without the schema's messages (the model got them, and tries again).
 */
export function invalidInputForUsers(toolName: string): string {
  return `Invalid input for tool "${toolName}"; the model was told what to fix.`;
}

/**
 * The default {@link ToolErrorText}: the text itself when it is meant for end users,
 * {@link invalidInputForUsers} for a refusal by the input schema, else {@link redactedToolError}.
 */
export function defaultToolErrorText(error: ToolError): string {
  if (error.forUsers) return error.message;
  if (isSchemaRefusal(error.message)) return invalidInputForUsers(error.toolName);
  return redactedToolError(error.toolName);
}

/** The {@link ToolError} of a tool message's error text. */
export function toolError(message: string, toolName: string, toolCallId: string): ToolError {
  return { message, toolName, toolCallId, forUsers: isToolErrorForUsers(message) };
}
