/** A neutral request shaped like the ones a session sends, for asserting what adapters put on the wire. */
import type { Model, ModelRequest, TextPart, ToolSpec } from '@skilltree/core/provider';
import type { ModelError } from '../../src/errors.js';

type ModelCallOptions = Parameters<Model['generate']>[1];

/** `text` as a message's parts. */
export const text = (value: string): TextPart[] => (value ? [{ type: 'text', text: value }] : []);

export const SYSTEM =
  'You are a shop assistant.\n\nSkills (read one with read_skill):\n- shopping — Find and buy products';
export const CONTEXT =
  '<current_context>\nCart: empty\n<skill name="shopping" active>\nSearch first.\n</skill>\n</current_context>';

export const TOOLS: ToolSpec[] = [
  {
    name: 'read_skill',
    description: 'Read a skill',
    inputSchema: { type: 'object', properties: { name: { type: 'string' } }, required: ['name'] },
  },
  {
    name: 'add_to_cart',
    description: 'Add an item',
    inputSchema: { type: 'object', properties: { sku: { type: 'string' } }, required: ['sku'] },
  },
];

export function sampleRequest(contextPlacement: 'end' | 'system' = 'end'): ModelRequest {
  return {
    system: SYSTEM,
    context: CONTEXT,
    contextPlacement,
    tools: TOOLS,
    messages: [
      { role: 'user', content: text('I need a lamp') },
      { role: 'assistant', content: [], toolCalls: [{ id: 't1', name: 'read_skill', input: { name: 'shopping' } }] },
      { role: 'tool', toolCallId: 't1', name: 'read_skill', content: text('Loaded skill "shopping".') },
      {
        role: 'assistant',
        content: text('Adding.'),
        toolCalls: [
          { id: 't2', name: 'add_to_cart', input: { sku: 'lamp' } },
          { id: 't3', name: 'nope', input: {} },
        ],
      },
      { role: 'tool', toolCallId: 't2', name: 'add_to_cart', content: text('added lamp') },
      {
        role: 'tool',
        toolCallId: 't3',
        name: 'nope',
        content: text('Unknown tool "nope".'),
        isError: true,
        errorKind: 'unknown-tool',
      },
      { role: 'user', content: text('thanks') },
    ],
  };
}

/** A one-message request. */
export function simpleRequest(content = 'hi'): ModelRequest {
  return {
    system: 'Be brief.',
    context: CONTEXT,
    contextPlacement: 'end',
    tools: [],
    messages: [{ role: 'user', content: text(content) }],
  };
}

/** A request whose one tool call carries input that is not JSON (`{"sku": `), answered with an error. */
export function rawInputRequest(): ModelRequest {
  return {
    ...simpleRequest(),
    messages: [
      { role: 'user', content: text('go') },
      { role: 'assistant', content: [], toolCalls: [{ id: 'x', name: 'add_to_cart', input: '{"sku": ' }] },
      { role: 'tool', toolCallId: 'x', name: 'add_to_cart', content: text('Invalid input'), isError: true },
    ],
  };
}

/**
 * What `model.generate(request, options)` rejected with: the error the failure tests read. (It
 * resolves with the response instead when the call succeeds, which the test's own assertions catch.)
 */
export function generateError(
  model: Model,
  request: ModelRequest = simpleRequest(),
  options: ModelCallOptions = {},
): Promise<ModelError> {
  return model.generate(request, options).catch((e: unknown) => e) as Promise<ModelError>;
}
