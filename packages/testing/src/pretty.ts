/**
 * Human-readable printing of a request, as the model receives it: for `agent.debug()`, for the
 * errors queries throw, and for matcher failure messages. The printer is core's; these names are
 * the testing package's own.
 */
import {
  type Message,
  type ModelRequest,
  type PrintOptions,
  printMessage,
  printRequest,
  printSchema,
  printTool,
} from '@skilltree/core/provider';
import { coreMessage, type TestMessage, type TestRequest } from './messages.js';

/** Options of {@link prettyRequest}. */
export type PrettyOptions = Pick<PrintOptions, 'maxLength' | 'hideMessages'>;

/** A JSON Schema as a short TypeScript-like type: `{ sku: string; qty?: number }`. */
export const prettySchema = printSchema;

/** One tool as a signature line: `add_to_cart({ sku: string }) — Add an item`. */
export const prettyTool = printTool;

/** One transcript message as the model reads it: role, ids, tool calls and content. */
export const prettyMessage = (message: Message | TestMessage): string => printMessage(coreMessage(message));

/**
 * The request as the model receives it, as readable text: system prompt, `<current_context>`,
 * tools (as signatures) and the transcript window. Deterministic, so it snapshots well.
 *
 * @example
 * expect(prettyRequest(agent.request())).toMatchSnapshot();
 */
export function prettyRequest(request: ModelRequest | TestRequest, options: PrettyOptions = {}): string {
  return printRequest({ ...request, messages: request.messages.map(coreMessage) } as ModelRequest, options);
}
