/**
 * Which tool errors an end user may read. A tool's error result is written for the model: a thrown
 * error's message (a driver error with a host, a user name, a path) goes into the transcript as
 * `Tool "x" failed: …`, because the model needs it. The browser gets it only when skilltree wrote the
 * text itself about the model's call (unknown tool or skill, invalid input) or about what became of
 * it (not run, interrupted, not saved); anything that came out of running the tool or the agent is
 * replaced by a sentence that names the tool.
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
   * server (see {@link isToolErrorForUsers}); the default shows these and redacts the rest.
   */
  forUsers: boolean;
}

/** The text the end user sees for a tool's error result, in the UI stream and in `GET /chat/:id`. */
export type ToolErrorText = (error: ToolError) => string;

/**
 * The one-line texts skilltree writes about a model's call, which carry only the model's own input
 * and the agent's tool and skill names, or say what became of the call (not run, interrupted, run
 * but not saved: never the store's error). Anything else (`Tool "x" failed: …`, a timeout, a result that
 * is not valid, a skill that broke, a schema that threw) may carry what the tool or agent threw.
 */
const FOR_USERS: readonly RegExp[] = [
  /^Unknown tool: /,
  /^Unknown skill: /,
  /^Invalid input for tool "[^"]*": (?!the schema threw)/,
  /^Not run: /,
  /^Interrupted: /,
  /^Tool "[^"]*" ran, but its result could not be saved\. /,
];

/**
 * Whether a tool's error text is meant for end users: one line that skilltree wrote about the model's
 * call (`Unknown tool: …`, `Unknown skill: …`, `Invalid input for tool "x": …` from the input schema,
 * `Not run: …`, `Interrupted: …`, `Tool "x" ran, but its result could not be saved. …`). Every other error text (a thrown error, a timeout, a schema that threw, more lines
 * appended after a call) is not.
 *
 * @example
 * isToolErrorForUsers('Unknown tool: refund (did you mean "refund_order"?). Tools available now: read_skill.'); // true
 * isToolErrorForUsers('Tool "orders" failed: connect ECONNREFUSED db.internal:5432'); // false
 */
export function isToolErrorForUsers(text: string): boolean {
  return !/[\r\n]/.test(text) && FOR_USERS.some((rule) => rule.test(text));
}

/** The sentence an end user sees instead of a tool's error text that is not meant for them. */
export function redactedToolError(toolName: string): string {
  return `Tool "${toolName}" failed; the details stay on the server.`;
}

/** The default {@link ToolErrorText}: the text itself when it is meant for end users, else {@link redactedToolError}. */
export function defaultToolErrorText(error: ToolError): string {
  return error.forUsers ? error.message : redactedToolError(error.toolName);
}

/** The {@link ToolError} of a tool message's error text. */
export function toolError(message: string, toolName: string, toolCallId: string): ToolError {
  return { message, toolName, toolCallId, forUsers: isToolErrorForUsers(message) };
}
