/**
 * Which tool errors an end user may read. A tool's error result is written for the model: a thrown
 * error's message (a driver error with a host, a user name, a path) goes into the transcript as
 * `Tool "x" failed: …`, because the model needs it. The browser gets it only when skilltree wrote the
 * text itself about the model's call (unknown tool or skill, arguments that are not JSON) or about
 * what became of it (not run, interrupted, not saved); anything that came out of running the tool or
 * the agent is replaced by a sentence that names the tool. The input schema's own messages are the
 * app's text too (`.refine(…, 'Order 7 belongs to alice@example.com')`): a refusal of the input
 * reaches users as a sentence that names the tool. Which is which is the result's `errorKind`.
 */
import { INTERRUPTED_RESULT, type ToolErrorKind } from '@skilltree/core/provider';

/** A tool's error result, as the model got it; what `onToolError` and {@link ToolErrorText} receive. */
export interface ToolError {
  /** The error text the model got (the tool message, without its `contextChanged` lines). */
  message: string;
  /** The tool the model called. */
  toolName: string;
  /** The call's id. */
  toolCallId: string;
  /** Why it is an error, as core recorded it (`unknown-tool`, `invalid-input`, `threw`, …). */
  kind: ToolErrorKind | undefined;
  /**
   * Whether skilltree wrote `message` itself about the model's call and it carries nothing from the
   * server or the app (see {@link isToolErrorForUsers}); the default shows these and replaces the rest.
   */
  forUsers: boolean;
}

/** The text the end user sees for a tool's error result, in the UI stream and in `GET /chat/:id`. */
export type ToolErrorText = (error: ToolError) => string;

/**
 * The error kinds whose text skilltree wrote about the model's call, carrying only the model's own
 * input and the agent's tool and skill names, or about what became of the call (not run,
 * interrupted, denied, run but not saved: never the store's error). Every other kind (a tool that
 * threw or timed out, a skill that broke) may carry what the tool or the app wrote, and a refusal by
 * the input schema may carry the app's own messages (refinements).
 */
const FOR_USERS: ReadonlySet<ToolErrorKind> = new Set([
  'unknown-tool',
  'unknown-skill',
  'not-run',
  'interrupted',
  'unsaved',
  'denied',
]);

/**
 * Whether a tool error of this kind is meant for end users as it is (see the table above), read
 * from the result's `errorKind`: the facts travel as data, no text is parsed.
 *
 * @example
 * isToolErrorForUsers('unknown-tool'); // true
 * isToolErrorForUsers('threw'); // false
 */
export function isToolErrorForUsers(kind: ToolErrorKind | undefined): boolean {
  return kind !== undefined && FOR_USERS.has(kind);
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
  if (error.kind === 'invalid-input') return invalidInputForUsers(error.toolName);
  return redactedToolError(error.toolName);
}

/**
 * The {@link ToolError} of a tool message's error text and kind. Text of more than one line (a
 * skill's failure appended after a call) is never shown as it is.
 */
export function toolError(
  message: string,
  toolName: string,
  toolCallId: string,
  kind: ToolErrorKind | undefined,
): ToolError {
  return { message, toolName, toolCallId, kind, forUsers: isToolErrorForUsers(kind) && !/[\r\n]/.test(message) };
}

/**
 * The {@link ToolError} of a call that has no result and waits for nothing while no turn runs: the
 * process running it stopped. It reads as the interrupted result the chat's next turn records.
 */
export function interruptedError(toolName: string, toolCallId: string): ToolError {
  return toolError(INTERRUPTED_RESULT, toolName, toolCallId, 'interrupted');
}
