/**
 * The Responses API's wire format for the test servers: a response object (`output` items and
 * `usage`) and the server-sent events of the same response streamed, as the API sends them.
 */
import type { SseEvent } from './server.js';

/** An output item as the API returns it. */
export type OutputItem = { type: string; [key: string]: any };

/** Usage as the Responses API reports it. */
export interface ResponsesUsage {
  input_tokens: number;
  input_tokens_details: { cached_tokens: number; cache_write_tokens?: number };
  output_tokens: number;
  output_tokens_details: { reasoning_tokens: number };
  total_tokens: number;
}

export const RESPONSES_USAGE: ResponsesUsage = {
  input_tokens: 110,
  input_tokens_details: { cached_tokens: 100 },
  output_tokens: 12,
  output_tokens_details: { reasoning_tokens: 7 },
  total_tokens: 122,
};

/** One scripted reply in Responses terms: reasoning (summaries, encrypted content), text, function calls. */
export interface ResponsesStep {
  reasoning?: { id: string; summary?: string[]; encrypted_content?: string | null };
  text?: string;
  /** An empty `id` gets a generated `call_…` id. */
  toolCalls?: { id: string; name: string; input: unknown }[];
}

let counter = 0;
const nextId = (prefix: string) => `${prefix}_${(++counter).toString(16).padStart(8, '0')}`;

const args = (input: unknown) => (typeof input === 'string' ? input : JSON.stringify(input));

/** The output items of a step, in the API's order: reasoning, the message, the function calls. */
export function outputItems(step: ResponsesStep): OutputItem[] {
  const items: OutputItem[] = [];
  if (step.reasoning) {
    const item: OutputItem = {
      type: 'reasoning',
      id: step.reasoning.id,
      summary: (step.reasoning.summary ?? []).map((text) => ({ type: 'summary_text', text })),
    };
    if (step.reasoning.encrypted_content !== undefined) item.encrypted_content = step.reasoning.encrypted_content;
    items.push(item);
  }
  if (step.text) {
    items.push({
      type: 'message',
      id: nextId('msg'),
      role: 'assistant',
      status: 'completed',
      content: [{ type: 'output_text', text: step.text, annotations: [] }],
    });
  }
  for (const call of step.toolCalls ?? []) {
    items.push({
      type: 'function_call',
      id: nextId('fc'),
      call_id: call.id || nextId('call'),
      name: call.name,
      arguments: args(call.input),
      status: 'completed',
    });
  }
  return items;
}

/** A whole response object. */
export function responseObject(
  output: OutputItem[],
  usage: ResponsesUsage | null = RESPONSES_USAGE,
  model = 'gpt-test',
  status = 'completed',
): Record<string, unknown> {
  return {
    id: nextId('resp'),
    object: 'response',
    created_at: 1,
    status,
    model,
    output,
    usage,
    error: null,
    incomplete_details: null,
    parallel_tool_calls: true,
    tool_choice: 'auto',
    tools: [],
  };
}

function halves(s: string): string[] {
  if (s.length < 2) return [s];
  const mid = Math.floor(s.length / 2);
  return [s.slice(0, mid), s.slice(mid)];
}

/**
 * The events of the same response streamed: `response.created`, each item added, its deltas
 * (summary text, output text, function-call arguments, each in two halves) and done, then
 * `response.completed` with the whole response.
 */
export function responseEvents(
  output: OutputItem[],
  usage: ResponsesUsage | null = RESPONSES_USAGE,
  model = 'gpt-test',
): SseEvent[] {
  let sequence = 0;
  const ev = (data: { type: string; [k: string]: unknown }): SseEvent => ({
    event: data.type,
    data: { ...data, sequence_number: sequence++ },
  });
  const response = responseObject(output, usage, model);
  const events: SseEvent[] = [
    ev({ type: 'response.created', response: { ...response, status: 'in_progress', output: [], usage: null } }),
    ev({ type: 'response.in_progress', response: { ...response, status: 'in_progress', output: [], usage: null } }),
  ];
  for (const [index, item] of output.entries()) {
    const at = { output_index: index, item_id: item.id };
    if (item.type === 'reasoning') {
      events.push(ev({ type: 'response.output_item.added', output_index: index, item: { ...item, summary: [] } }));
      for (const [s, summary] of (item.summary as { text: string }[]).entries()) {
        events.push(
          ev({
            type: 'response.reasoning_summary_part.added',
            ...at,
            summary_index: s,
            part: { type: 'summary_text', text: '' },
          }),
        );
        for (const delta of halves(summary.text)) {
          events.push(ev({ type: 'response.reasoning_summary_text.delta', ...at, summary_index: s, delta }));
        }
        events.push(ev({ type: 'response.reasoning_summary_text.done', ...at, summary_index: s, text: summary.text }));
        events.push(
          ev({
            type: 'response.reasoning_summary_part.done',
            ...at,
            summary_index: s,
            part: { type: 'summary_text', text: summary.text },
          }),
        );
      }
    } else if (item.type === 'message') {
      const text = item.content[0].text as string;
      events.push(
        ev({
          type: 'response.output_item.added',
          output_index: index,
          item: { ...item, status: 'in_progress', content: [] },
        }),
      );
      events.push(
        ev({
          type: 'response.content_part.added',
          ...at,
          content_index: 0,
          part: { type: 'output_text', text: '', annotations: [] },
        }),
      );
      for (const delta of halves(text)) {
        events.push(ev({ type: 'response.output_text.delta', ...at, content_index: 0, delta, logprobs: [] }));
      }
      events.push(ev({ type: 'response.output_text.done', ...at, content_index: 0, text, logprobs: [] }));
      events.push(ev({ type: 'response.content_part.done', ...at, content_index: 0, part: item.content[0] }));
    } else if (item.type === 'function_call') {
      events.push(
        ev({
          type: 'response.output_item.added',
          output_index: index,
          item: { ...item, status: 'in_progress', arguments: '' },
        }),
      );
      for (const delta of halves(item.arguments as string)) {
        events.push(ev({ type: 'response.function_call_arguments.delta', ...at, delta }));
      }
      events.push(ev({ type: 'response.function_call_arguments.done', ...at, arguments: item.arguments }));
    }
    events.push(ev({ type: 'response.output_item.done', output_index: index, item }));
  }
  events.push(ev({ type: 'response.completed', response }));
  return events;
}
