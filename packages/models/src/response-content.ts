/**
 * A whole response's content as the adapters that read one assemble it (Anthropic's content
 * blocks, the Responses API's output items): text runs merged into one text part, reasoning parts
 * in order with the text around them, tool calls apart; then the `ModelResponse` with its usage and
 * the model that answered.
 */
import type { AssistantPart, ModelResponse, ToolCall, Usage } from '@skilltree/core/provider';

/** A response's content as it is read, item by item. */
export class ResponseContent {
  /** Every text item joined: the response's `text`. */
  text = '';
  /** Text and reasoning parts in the order of the response. */
  readonly parts: AssistantPart[] = [];
  readonly toolCalls: ToolCall[] = [];

  /** A piece of text: it extends the text part before it, so a run of text items is one part. */
  addText(piece: string): void {
    this.text += piece;
    const last = this.parts[this.parts.length - 1];
    if (last?.type === 'text') last.text += piece;
    else this.parts.push({ type: 'text', text: piece });
  }

  /**
   * The response. `content` is set when `keepContent` says so for these parts (an adapter whose
   * text-only responses leave it out passes whether any part is reasoning); `usage` and `model`
   * when the provider reported them.
   */
  response(usage: Usage | undefined, model: unknown, keepContent: (parts: AssistantPart[]) => boolean): ModelResponse {
    const out: ModelResponse = { text: this.text, toolCalls: this.toolCalls };
    if (keepContent(this.parts)) out.content = this.parts;
    if (usage) out.usage = usage;
    if (typeof model === 'string' && model) out.model = model;
    return out;
  }
}
