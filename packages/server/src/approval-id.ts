/**
 * The approval id the server gives a waiting call (`tool-approval-request`, and the history's
 * `approval-requested` parts): `<incarnation>.<toolCallId>`. useChat sends it back with the answer
 * (`addToolApprovalResponse`), so an approval names the incarnation of the chat the person saw it
 * in: a page of a chat deleted and started again under its id answers nothing in the new one.
 */
import type { WaitingCall } from '@skilltree/core';

/** The approval id of `call`: its incarnation and id, or its id alone for a call of no chat. */
export function approvalIdOf(call: Pick<WaitingCall, 'toolCallId' | 'incarnation'>): string {
  return call.incarnation ? `${call.incarnation}.${call.toolCallId}` : call.toolCallId;
}

/**
 * The incarnation an approval id names for the call `toolCallId`, or undefined when it names none
 * (an id this server did not make, or made for another call). Hostile input: read, never trusted.
 */
export function incarnationOfApproval(approvalId: unknown, toolCallId: string): string | undefined {
  if (typeof approvalId !== 'string' || approvalId.length > 400) return undefined;
  const dot = approvalId.indexOf('.');
  if (dot <= 0 || approvalId.slice(dot + 1) !== toolCallId) return undefined;
  return approvalId.slice(0, dot);
}

/**
 * The incarnation and call an approval id names, whatever part carries it, or undefined when it is
 * not one this server could have made. A call inside a subagent run asks on the tool part of the
 * parent's call, so its approval names another call than the part's. Hostile input: read, never
 * trusted (the call must be one that waits inside a run of the chat: see `post-chat.ts`).
 */
export function approvalTarget(approvalId: unknown): { incarnation: string; toolCallId: string } | undefined {
  if (typeof approvalId !== 'string' || approvalId.length > 400) return undefined;
  const dot = approvalId.indexOf('.');
  if (dot <= 0 || dot === approvalId.length - 1) return undefined;
  return { incarnation: approvalId.slice(0, dot), toolCallId: approvalId.slice(dot + 1) };
}
