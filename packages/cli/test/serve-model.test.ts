/**
 * The model `skilltree serve` gives its chats: a copy of the script per chat, kept while the process
 * runs, started again when it runs out.
 */
import { type ModelRequest, scriptedModel } from '@skilltree/core';
import { describe, expect, it } from 'vitest';
import { scriptPerChat } from '../src/commands/serve/model.js';

const request = { messages: [], tools: [], context: '', system: '' } as unknown as ModelRequest;
const script = () => scriptedModel([{ text: 'one' }, { text: 'two' }]);

describe('scriptPerChat', () => {
  it('gives each chat its own copy, from the first exchange', async () => {
    const model = scriptPerChat(script);
    expect((await model('a').generate(request, {})).text).toBe('one');
    expect((await model('b').generate(request, {})).text).toBe('one');
    // Alice's chat a and Bob's chat a are two chats.
    expect((await model('a', 'alice').generate(request, {})).text).toBe('one');
    expect((await model('a', 'bob').generate(request, {})).text).toBe('one');
    expect((await model('a', 'alice').generate(request, {})).text).toBe('two');
  });

  it('a chat mounted again in this process goes on with its copy; a copy that runs out starts again', async () => {
    const model = scriptPerChat(script);
    expect((await model('a').generate(request, {})).text).toBe('one');
    const again = model('a');
    expect((await again.generate(request, {})).text).toBe('two');
    expect((await again.generate(request, {})).text).toBe('one');
  });
});
