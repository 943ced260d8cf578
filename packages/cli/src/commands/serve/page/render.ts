/**
 * How the served page shows a chat: each `UIMessage` part the AI SDK's chat state built, as DOM
 * nodes. Everything the agent says is set as text (`textContent`), never as HTML. This file only
 * draws parts; which parts a message has, and in what state, is the AI SDK's business.
 */
import type { SkilltreeUIMessage } from '@skilltree/server';

type Part = SkilltreeUIMessage['parts'][number];
type ToolPart = Extract<Part, { type: 'dynamic-tool' }>;

/** Approves or denies the call that waits under `approvalId` (the chat's `addToolApprovalResponse`). */
export type Answer = (approvalId: string, approved: boolean) => void;

/** The mark before a call's name, by the state of its part. */
const MARKS: Partial<Record<ToolPart['state'], string>> = {
  'output-available': '✓',
  'output-error': '✗',
  'output-denied': '✗',
  'approval-requested': '?',
};

/** A new element with `className` and, when given, `text` as its text. */
export function el(tag: string, className = '', text?: string): HTMLElement {
  const node = document.createElement(tag);
  if (className) node.className = className;
  if (text !== undefined) node.textContent = text;
  return node;
}

function show(value: unknown): string {
  return typeof value === 'string' ? value : JSON.stringify(value, null, 1);
}

function approval(part: ToolPart & { state: 'approval-requested' }, answer: Answer): HTMLElement {
  const box = el('div', 'approval');
  box.append(el('span', '', 'This call waits for your approval.'));
  for (const [label, approved] of [
    ['Approve', true],
    ['Deny', false],
  ] as const) {
    const button = el('button', '', label) as HTMLButtonElement;
    button.type = 'button';
    button.addEventListener('click', () => answer(part.approval.id, approved));
    box.append(button);
  }
  return box;
}

function tool(part: ToolPart, answer: Answer): HTMLElement {
  const failed = part.state === 'output-error' || part.state === 'output-denied';
  const box = el('details', failed ? 'tool error' : 'tool') as HTMLDetailsElement;
  box.dataset.tool = part.toolName;
  box.dataset.state = part.state;
  // A call that waits for a person is open: its buttons show without a click.
  box.open = part.state === 'approval-requested';
  box.append(el('summary', '', `${MARKS[part.state] ?? '…'} ${part.toolName}(${JSON.stringify(part.input ?? {})})`));
  switch (part.state) {
    case 'approval-requested':
      box.append(approval(part, answer));
      break;
    case 'approval-responded':
      box.append(el('pre', '', part.approval.approved ? 'Approved: running…' : 'Denied.'));
      break;
    case 'output-available':
      box.append(el('pre', '', show(part.output)));
      break;
    case 'output-error':
      box.append(el('pre', '', part.errorText));
      break;
    case 'output-denied':
      box.append(el('pre', '', 'Denied.'));
      break;
  }
  return box;
}

/** The node for one part, or null for a part the page does not show (step starts, sources, …). */
export function renderPart(part: Part, answer: Answer): HTMLElement | null {
  switch (part.type) {
    case 'text':
      return el('div', 'text', part.text);
    case 'reasoning':
      return el('div', 'reasoning', part.text);
    case 'dynamic-tool':
      return tool(part, answer);
    case 'data-skill-loaded': {
      const node = el('div', 'skill', `skill loaded: ${part.data.name}`);
      node.dataset.skillLoaded = part.data.name;
      return node;
    }
    case 'data-skill-unloaded': {
      const node = el('div', 'skill', `skill unloaded: ${part.data.name}`);
      node.dataset.skillUnloaded = part.data.name;
      return node;
    }
    case 'data-context-changed':
      return el('div', 'changed', part.data.lines.join('\n'));
    default:
      return null;
  }
}

/** One message: who said it, then its parts in order. */
export function renderMessage(message: SkilltreeUIMessage, answer: Answer): HTMLElement {
  const box = el('div', `msg ${message.role}`);
  box.dataset.role = message.role;
  box.append(el('div', 'who', message.role === 'user' ? 'you' : 'agent'));
  for (const part of message.parts) {
    const node = renderPart(part, answer);
    if (node) box.append(node);
  }
  return box;
}
