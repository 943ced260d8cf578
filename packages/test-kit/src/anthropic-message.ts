/**
 * The Messages API's message object as the local stand-ins for Anthropic send it: in a
 * non-streamed response, and (empty, no stop reason yet) in a stream's `message_start` event.
 */

/** A Messages API message with id `msg_1`, from `model` (`claude-test` when left out). */
export function anthropicMessageObject(
  content: unknown[],
  stopReason: string | null,
  usage: Record<string, unknown>,
  model = 'claude-test',
) {
  return {
    id: 'msg_1',
    type: 'message',
    role: 'assistant',
    model,
    content,
    stop_reason: stopReason,
    stop_sequence: null,
    usage,
  };
}
