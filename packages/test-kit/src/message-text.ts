/**
 * The text of a message as the model read it, whichever shape a test holds it in: core's message
 * (its content is parts) or the testing package's view of it (its content is that text already).
 * The example agents' tests read tool results through these.
 */
import { type Message, textOf } from '@skilltree/core';

/** A message as a test gets it: core's (parts) or a view whose `content` is the text. */
export type AnyMessage = Message | { role: string; content: string };
/** A tool message as a test gets it: core's or a view of it. */
export type AnyToolMessage = AnyMessage & { name: string; isError?: boolean };

/** The text a model read of a message. */
export function text(message: AnyMessage): string {
  return typeof message.content === 'string' ? message.content : textOf(message as Message);
}

/** The `contextChanged` lines of a tool or user message. */
export function changes(message: AnyMessage): string[] {
  return text(message)
    .split('\n')
    .filter((line) => line.startsWith('contextChanged'));
}

/** The text of a tool message without its `contextChanged` lines. */
export function own(message: AnyMessage): string {
  return text(message)
    .split('\n')
    .filter((line) => !line.startsWith('contextChanged'))
    .join('\n');
}

/** The tool's own text, after checking the call succeeded (else an error that shows what it said). */
export function ok(message: AnyToolMessage): string {
  if (message.isError) throw new Error(`expected ${message.name} to succeed, got: ${text(message)}`);
  return own(message);
}

/** The tool's text, after checking the call failed (else an error that shows what it said). */
export function failed(message: AnyToolMessage): string {
  if (!message.isError) throw new Error(`expected ${message.name} to fail, got: ${text(message)}`);
  return text(message);
}
