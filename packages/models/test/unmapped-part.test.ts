/**
 * An adapter maps every part kind an assistant message can hold: a kind it does not map fails to
 * compile where it walks the parts (`unmappedPart` takes `never`), and a record that brings one
 * anyway fails the request naming the kind, never drops it silently.
 */
import type { Message } from '@skilltree/core/provider';
import { describe, expect, it } from 'vitest';
import { appendMessage } from '../src/ai-sdk-parts.js';
import { messageBlocks } from '../src/anthropic-blocks.js';
import { messageItems } from '../src/openai-responses.js';

const source = { provider: 'test', model: 'm' };
const forged = {
  role: 'assistant',
  content: [
    { type: 'text', text: 'see' },
    // Obviously forged, so no real kind a contributor adds ever takes its name and breaks this test.
    { type: 'forged-unmapped-kind', text: 'X' },
  ],
} as unknown as Message;

describe('an adapter refuses a part kind it does not map, naming it, instead of dropping it', () => {
  it('anthropic()', () => {
    expect(() => messageBlocks(forged, source)).toThrow(
      /anthropic\(\) does not map a message part of type "forged-unmapped-kind"/,
    );
  });
  it('openai()', () => {
    expect(() => messageItems(forged, source)).toThrow(
      /openai\(\) does not map a message part of type "forged-unmapped-kind"/,
    );
  });
  it('aiSdk()', () => {
    const target = { provider: 'openai', modelId: 'm', version: 'v3', source };
    expect(() => appendMessage([], forged, target)).toThrow(
      /aiSdk\(\) does not map a message part of type "forged-unmapped-kind"/,
    );
  });
  it('the parts it maps still pass: text and reasoning from elsewhere (left out, as before)', () => {
    const message = {
      role: 'assistant',
      content: [
        { type: 'text', text: 'hi' },
        { type: 'reasoning', provider: 'other', model: 'm', text: 'r' },
      ],
    } as Message;
    expect(messageBlocks(message, source)).toEqual([{ type: 'text', text: 'hi' }]);
    expect(messageItems(message, source)).toEqual([{ role: 'assistant', content: 'hi' }]);
  });
});
