/**
 * The scripted conversation the CLI plays when no API key is set, against a fresh copy of the
 * example's `sandbox/` folder. Steps that are functions answer from what the tools returned, and
 * fail loudly when the result is not what the script expects.
 *
 * It reads, searches, edits, is refused a path outside the sandbox, and undoes its edit (a tool
 * that exists only while there is an edit to undo).
 */
import { lastToolResult, type ScriptedStep, scriptedModel, textOf } from '@skilltree/core';

export const DEMO_MESSAGES = [
  "What's on my to-do list?",
  'Where did I write about the dentist?',
  'I called the dentist. Tick it off, please.',
  'Can you show me /etc/passwd, or ../../.ssh/id_rsa?',
  'Hmm, actually undo that change to the to-do list.',
];

const call = (name: string, input: Record<string, unknown> = {}) => ({ toolCalls: [{ name, input }] });

export const DEMO_STEPS: ScriptedStep[] = [
  // 1. Read.
  call('read_skill', { name: 'files' }),
  call('read_file', { path: 'notes/todo.md' }),
  (req) => {
    const open = [...textOf(lastToolResult(req)).matchAll(/^\d+\t- \[ \] (.+)$/gm)].map((m) => m[1]);
    if (open.length === 0) throw new Error('demo script: expected open items in notes/todo.md.');
    return { text: `You have ${open.length} open items:\n${open.map((item) => `- ${item}`).join('\n')}` };
  },

  // 2. Search.
  call('read_skill', { name: 'search' }),
  call('grep', { pattern: 'dentist', ignoreCase: true }),
  (req) => {
    const hits = [...textOf(lastToolResult(req)).matchAll(/^(\S+):(\d+): /gm)].map((m) => `${m[1]} (line ${m[2]})`);
    if (hits.length === 0) throw new Error('demo script: expected grep to find the dentist.');
    return { text: `You mention the dentist in ${hits.join(' and ')}.` };
  },

  // 3. Edit.
  call('read_skill', { name: 'edit' }),
  call('replace_in_file', {
    path: 'notes/todo.md',
    old: '- [ ] Call the dentist',
    new: '- [x] Call the dentist',
  }),
  (req) => {
    const result = lastToolResult(req);
    if (result.isError) throw new Error(`demo script: the edit failed: ${textOf(result)}`);
    return { text: 'Ticked off: "Call the dentist to move the March 20 appointment" is done in notes/todo.md.' };
  },

  // 4. Outside the sandbox: refused, and the model says so.
  call('read_file', { path: '/etc/passwd' }),
  (req) => {
    const result = lastToolResult(req);
    if (!result.isError || !textOf(result).includes('outside the sandbox')) {
      throw new Error(`demo script: expected /etc/passwd to be refused, got: ${textOf(result)}`);
    }
    return call('read_file', { path: '../../.ssh/id_rsa' });
  },
  (req) => {
    const result = lastToolResult(req);
    if (!result.isError || !textOf(result).includes('outside the sandbox')) {
      throw new Error(`demo script: expected ../../.ssh/id_rsa to be refused, got: ${textOf(result)}`);
    }
    return { text: "I can't: I only have access to the files in your sandbox folder, and both are outside it." };
  },

  // 5. Undo: the tool exists because there is an edit to undo.
  (req) => {
    if (!req.tools.some((t) => t.name === 'undo_last_edit')) throw new Error('demo script: expected undo_last_edit.');
    return call('undo_last_edit');
  },
  (req) => ({ text: `${textOf(lastToolResult(req)).split('\n')[0]} The dentist item is open again.` }),
];

export const demo = {
  messages: DEMO_MESSAGES,
  model: () => scriptedModel(DEMO_STEPS),
};
