/**
 * Messages from outside (snapshots, store records, recorded conversations) checked and upgraded:
 * today's typed parts pass through checked; a tool result written before messages had parts (its
 * `content` a string) is upgraded, its trailing `contextChanged` lines becoming a part of their own,
 * so that it reads exactly as it did, while a user's string content stays the user's text (quoted
 * as the runtime quotes typed text: a user's line never becomes a change); a part written before context changes were typed (`lines`,
 * the text a model reads) is upgraded to typed `changes`; a reasoning part written before parts held
 * a provider payload (`signature`, `redactedData`, `encryptedContent`, `itemId` at its top) gets
 * them as `providerData`. This is the one place that reads a `contextChanged` line back: everything
 * after it reads a change's `kind`.
 */
import { textContent } from '../parts/message-parts.js';
import { cleanReasoning } from '../parts/reasoning.js';
import { CONTEXT_CHANGED, sanitizeText } from '../parts/text.js';
import { isToolName } from '../parts/tool-name.js';
import type {
  AssistantPart,
  ContextChange,
  Message,
  MessagePart,
  ToolErrorKind,
  ToolResultPart,
  UserPart,
} from '../types/messages.js';

/** Every error kind a tool result may carry. */
export const TOOL_ERROR_KINDS: readonly ToolErrorKind[] = [
  'unknown-tool',
  'unknown-skill',
  'invalid-input',
  'threw',
  'timeout',
  'interrupted',
  'not-run',
  'unsaved',
  'denied',
  'skill',
];

/**
 * The result of a call whose process stopped before its result was saved (a crash mid-tool): what
 * a restored session records for it (`errorKind: 'interrupted'`), and what a server shows for it
 * once no turn runs. It may have run to the end: it says no more than that.
 */
export const INTERRUPTED_RESULT =
  "Interrupted: this call's result was never saved (the process running it stopped, or could not write it). It may or may not have taken effect; check before calling it again.";

/** The part union of each role. */
interface RoleParts {
  user: UserPart;
  assistant: AssistantPart;
  tool: ToolResultPart;
}

/**
 * Which part types each role may hold: every kind of the role's union, and only those (a kind added
 * to a union and not here fails to compile).
 */
const ALLOWED: { [R in Message['role']]: Record<RoleParts[R]['type'], true> } = {
  user: { text: true, file: true, 'context-changed': true },
  assistant: { text: true, reasoning: true },
  tool: { text: true, file: true, 'context-changed': true },
};

const LIFECYCLE = new RegExp(`^${CONTEXT_CHANGED} (\\S+) (loaded|unloaded)$`);
const ADDED = new RegExp(`^${CONTEXT_CHANGED} (\\S+) added: `);

/**
 * A `contextChanged` line as an older version recorded it, read back as the change it wrote (the
 * inverse of `contextChangeLine`), or null for any other line. Only old records need it.
 */
function parseContextChange(line: string): ContextChange | null {
  const lifecycle = LIFECYCLE.exec(line);
  if (lifecycle) return { kind: lifecycle[2] as 'loaded' | 'unloaded', skill: lifecycle[1] };
  const added = ADDED.exec(line);
  if (added) return { kind: 'line', skill: added[1], text: line.slice(added[0].length) };
  return null;
}

/**
 * `contextChanged` lines as an older version recorded them (a message part's `lines`, a snapshot's
 * pending changes), upgraded to typed changes. A line no version wrote is an error naming it.
 */
export function upgradeContextLines(lines: readonly string[], where: string): ContextChange[] {
  return lines.map((line, i) => {
    const change = parseContextChange(line);
    if (!change) throw new Error(`${where}[${i}] is not a contextChanged line: ${JSON.stringify(line.slice(0, 80))}.`);
    return change;
  });
}

/** Whether `raw` is a context change (checked field by field, so stored JSON can be trusted after). */
function isContextChange(raw: unknown): raw is ContextChange {
  const c = raw as Record<string, unknown> | null;
  // A change renders as one line the model reads: a skill that is not a name, or a line broken in
  // two, would let a record forge lines the runtime never wrote.
  if (!c || typeof c !== 'object' || !isToolName(c.skill)) return false;
  if (c.kind === 'line') return typeof c.text === 'string' && !/[\r\n]/.test(c.text);
  return c.kind === 'loaded' || c.kind === 'unloaded';
}

/** A fresh copy of a checked context change (only its own fields). */
function copyChange(change: ContextChange): ContextChange {
  return change.kind === 'line'
    ? { kind: 'line', skill: change.skill, text: change.text }
    : { kind: change.kind, skill: change.skill };
}

/**
 * Context changes read from outside: typed changes checked, or (from an older version) the
 * `contextChanged` lines it recorded, upgraded. An error names what is wrong at `where`.
 */
export function readContextChanges(raw: unknown, where: string): ContextChange[] {
  if (!Array.isArray(raw)) throw new Error(`${where} must be an array of context changes.`);
  if (raw.every((item) => typeof item === 'string')) return upgradeContextLines(raw as string[], where);
  return raw.map((item, i) => {
    if (!isContextChange(item)) {
      throw new Error(
        `${where}[${i}] is not a context change ({ kind: 'loaded' | 'unloaded', skill } or { kind: 'line', skill, text }).`,
      );
    }
    return copyChange(item);
  });
}

/** A message's content written as one string (before parts): its text, then its `contextChanged` lines. */
export function upgradeContent(content: string): MessagePart[] {
  const lines = content.split('\n');
  let cut = lines.length;
  while (cut > 0 && parseContextChange(lines[cut - 1]) !== null) cut--;
  if (cut === lines.length) return textContent(content);
  const parts: MessagePart[] = textContent(lines.slice(0, cut).join('\n'));
  parts.push({ type: 'context-changed', changes: upgradeContextLines(lines.slice(cut), 'content') });
  return parts;
}

/** The error kind of a tool result written before results had kinds, from the words it starts with. */
function legacyKind(text: string): ToolErrorKind {
  if (text.startsWith('Unknown tool:')) return 'unknown-tool';
  if (text.startsWith('Unknown skill:')) return 'unknown-skill';
  if (text.startsWith('Invalid input')) return 'invalid-input';
  if (text.startsWith('Interrupted')) return 'interrupted';
  if (text.startsWith('Not run')) return 'not-run';
  if (/^Tool "[^"]*" failed: .*timed out after/.test(text)) return 'timeout';
  return 'threw';
}

function checkPart(raw: unknown, role: Message['role'], where: string): MessagePart {
  const p = raw as Record<string, unknown> | null;
  if (!p || typeof p !== 'object' || typeof p.type !== 'string')
    throw new Error(`${where} is not a part ({ type, … }).`);
  if (!Object.hasOwn(ALLOWED[role], p.type)) {
    throw new Error(`${where} has type ${JSON.stringify(p.type)}, which a ${role} message cannot hold.`);
  }
  // Exhaustive: a kind added to MessagePart without its own case fails to compile below.
  const type = p.type as MessagePart['type'];
  switch (type) {
    case 'text':
      if (typeof p.text !== 'string') throw new Error(`${where}.text must be a string.`);
      return { type: 'text', text: p.text };
    case 'context-changed':
      // A part an older version wrote holds the lines a model reads (`lines`): upgraded here.
      if (p.changes === undefined && p.lines !== undefined) {
        if (!Array.isArray(p.lines) || p.lines.some((line) => typeof line !== 'string')) {
          throw new Error(`${where}.lines must be an array of strings.`);
        }
        return { type: 'context-changed', changes: upgradeContextLines(p.lines as string[], `${where}.lines`) };
      }
      return { type: 'context-changed', changes: readContextChanges(p.changes, `${where}.changes`) };
    case 'reasoning': {
      // A record from before payloads (signature, … at the top) is upgraded here: see upgradeReasoning.
      const part = cleanReasoning(p);
      if (!part) throw new Error(`${where} (reasoning) needs a string provider and text.`);
      return part;
    }
    case 'file': {
      if (typeof p.mediaType !== 'string' || p.mediaType === '')
        throw new Error(`${where} (a file) needs a mediaType.`);
      const hasData = typeof p.data === 'string';
      const hasUrl = typeof p.url === 'string';
      if (hasData === hasUrl) throw new Error(`${where} (a file) needs exactly one of data (base64) and url.`);
      const out: MessagePart = { type: 'file', mediaType: p.mediaType };
      if (hasData) out.data = p.data as string;
      else out.url = p.url as string;
      if (typeof p.filename === 'string') out.filename = p.filename;
      return out;
    }
    default: {
      const unchecked: never = type;
      throw new Error(`${where} has type ${JSON.stringify(unchecked)}, which has no check in message-parse.ts.`);
    }
  }
}

/**
 * `raw` as a checked message (a fresh copy), or an error that names what is wrong with it at
 * `where` (e.g. `transcript[3]`). Legacy string content is upgraded (see {@link upgradeContent}),
 * and a legacy error result gets its error kind from its text.
 */
export function parseMessage(raw: unknown, where = 'message'): Message {
  const m = raw as Record<string, unknown> | null;
  if (!m || typeof m !== 'object') throw new Error(`${where} is not a message.`);
  const role = m.role;
  if (role !== 'user' && role !== 'assistant' && role !== 'tool') {
    throw new Error(`${where} has role ${JSON.stringify(role)}; a role must be user, assistant or tool.`);
  }
  let content: MessagePart[];
  const legacy = typeof m.content === 'string';
  // Only the runtime's own messages carry its lines: a user's string content is the user's text
  // through and through (a first-format record did not quote typed `contextChanged` lines), so it
  // is quoted as today's runtime records a user's text, and never upgraded into changes.
  if (legacy)
    content = role === 'user' ? textContent(sanitizeText(m.content as string)) : upgradeContent(m.content as string);
  else if (Array.isArray(m.content))
    content = m.content.map((part, i) => checkPart(part, role, `${where}.content[${i}]`));
  else throw new Error(`${where}.content must be a list of parts.`);
  if (role === 'user') return { role, content } as Message;
  if (role === 'assistant') {
    if (legacy) content = content.filter((part) => part.type === 'text');
    const out: Message = { role, content } as Message;
    if (m.toolCalls !== undefined) {
      if (!Array.isArray(m.toolCalls)) throw new Error(`${where}.toolCalls must be an array.`);
      (out as { toolCalls?: unknown }).toolCalls = m.toolCalls.map((call: Record<string, unknown>, j: number) => {
        if (!call || typeof call.id !== 'string' || typeof call.name !== 'string') {
          throw new Error(`${where}.toolCalls[${j}] needs a string id and name.`);
        }
        return { id: call.id, name: call.name, input: call.input ?? {} };
      });
    }
    return out;
  }
  if (typeof m.toolCallId !== 'string' || typeof m.name !== 'string') {
    throw new Error(`${where} (a tool result) needs a string toolCallId and name.`);
  }
  const out: Message = { role, toolCallId: m.toolCallId, name: m.name, content } as Message;
  if (m.isError === true && out.role === 'tool') {
    out.isError = true;
    const kind = m.errorKind;
    if (kind !== undefined && !TOOL_ERROR_KINDS.includes(kind as ToolErrorKind)) {
      throw new Error(`${where}.errorKind ${JSON.stringify(kind)} is not one of ${TOOL_ERROR_KINDS.join(', ')}.`);
    }
    out.errorKind = (kind as ToolErrorKind | undefined) ?? legacyKind(typeof m.content === 'string' ? m.content : '');
  }
  return out;
}
