import { createSessions, type Model, memoryStore, textOf } from '@skilltree/core';
import { TravelAgent } from './travel-agent.js';

/** A stand-in that echoes: use anthropic(), openai() or aiSdk() from @skilltree/models. */
const model: Model = {
  async generate(request) {
    const last = request.messages.findLast((m) => m.role === 'user');
    return { text: `You said: ${last ? textOf(last).split('\n')[0] : ''}`, toolCalls: [] };
  },
};

export const sessions = createSessions(<TravelAgent />, { store: memoryStore(), model });

/** Who is asking. A stand-in for your auth provider: a bearer token per user. */
const tokens = new Map([
  ['token-alice', 'alice'],
  ['token-bob', 'bob'],
]);

export function authorize(request: Request): string | null {
  const token = request.headers.get('authorization')?.replace(/^Bearer /, '') ?? '';
  return tokens.get(token) ?? null;
}
