/**
 * The AI SDK's own chat engine (`AbstractChat`, what useChat runs) on plain state, for tests that
 * drive the server as a browser page would: send, approve with `addToolApprovalResponse`, settle.
 */
import { plainChatState } from '@skilltree/test-kit';
import { AbstractChat, DefaultChatTransport, lastAssistantMessageIsCompleteWithApprovalResponses } from 'ai';
import type { SkilltreeUIMessage } from '../src/index.js';
import { apiPath } from './helpers.js';

/** The chat engine under useChat, with plain state. */
export class NodeChat extends AbstractChat<SkilltreeUIMessage> {
  constructor(url: string, id: string, user: string) {
    const state = plainChatState<SkilltreeUIMessage>();
    super({
      id,
      state,
      transport: new DefaultChatTransport({ api: `${url}${apiPath('chat')}`, headers: { 'x-user': user } }),
      sendAutomaticallyWhen: lastAssistantMessageIsCompleteWithApprovalResponses,
    });
  }
  get all() {
    return this.state.messages;
  }
}

/** Waits until the chat engine is idle (its own status: no clock). */
export async function settled(chat: NodeChat) {
  while (chat.status === 'submitted' || chat.status === 'streaming') await new Promise((r) => setTimeout(r, 5));
}

export const toolPart = (m: SkilltreeUIMessage | undefined) =>
  m?.parts.find((p) => p.type === 'dynamic-tool') as { state: string; toolCallId: string; approval?: { id: string } };

/**
 * A page reloaded while a turn runs: a new engine on chat `id` starts from `history` and resumes the
 * turn's stream (`GET /chat/:id/stream`); once it follows the turn (its engine streams: `start`
 * came), `release` lets the turn go on. Resolves with the page once the resumed stream ended.
 */
export async function resumeWhileRunning(
  url: string,
  id: string,
  user: string,
  history: SkilltreeUIMessage[],
  release: () => void,
): Promise<NodeChat> {
  const reloaded = new NodeChat(url, id, user);
  reloaded.messages = history;
  const resumed = reloaded.resumeStream();
  while (reloaded.status !== 'streaming') await new Promise((resolve) => setTimeout(resolve, 5));
  release();
  await resumed;
  return reloaded;
}
