/**
 * `skilltree chat`, end to end: the real binary, messages and slash commands piped on stdin.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { keyVariables } from '../src/kit/pick-model.js';
import { AGENT, openAIServerPerTest, shoppingSteps } from './helpers/e2e.js';
import { runCli } from './helpers/run-cli.js';
import { storedSession } from './helpers/stored-session.js';

const local = openAIServerPerTest();
const openai = local.start;

/** `skilltree chat` of the shop agent, typed `lines` one per line on stdin, against the model `env` points at. */
const chatLines = (env: Record<string, string>, lines: string[]) =>
  runCli(['chat', AGENT], { env, stdin: lines.join('\n') });

describe('skilltree chat (piped stdin)', () => {
  it('streams replies, prints skill and tool lines, and runs slash commands', async () => {
    const env = await openai([...shoppingSteps, { text: 'Hello again!' }]);
    const { code, stdout, stderr } = await chatLines(env, [
      'I want a lamp',
      '/skills',
      '/request',
      '/transcript',
      '/stores',
      '/bogus',
      '',
      '/reset',
      '/skills',
      'hello again',
      '/exit',
      'never sent',
    ]);
    expect(stderr).toContain('Using openai:gpt-4.1');
    expect(code).toBe(0);
    expect(stdout).not.toContain('\u001b['); // no colors on a pipe
    expect(stdout).toContain('you › I want a lamp\n');
    expect(stdout).toContain('  ⚙ read_skill {"name":"shopping"}\n');
    expect(stdout).toContain('  + skill shopping loaded\n');
    expect(stdout).toContain('    ↳ found lamp\n');
    expect(stdout).toContain('agent › I added lamp-1 to your cart.\n');
    // /skills
    expect(stdout).toMatch(/● shopping\s+active \(mounted 1×\)\s+— Find and buy products/);
    expect(stdout).toMatch(/○ refunds\s+not loaded/);
    // /request: the request as the model receives it, printed by core's printer
    expect(stdout).toContain('── system');
    expect(stdout).toContain('You are a shop assistant.');
    expect(stdout).toContain('── context (placement: end)');
    expect(stdout).toContain('<skill name="shopping" active="true">');
    expect(stdout).toContain('── tools (4)');
    expect(stdout).toContain('checkout({}) — Pay');
    expect(stdout).toContain('── messages (8 of 8)');
    // /transcript
    expect(stdout).toMatch(/#1 \[user\]\n {2}I want a lamp/);
    expect(stdout).toMatch(/#8 \[assistant\]\n {2}I added lamp-1/);
    // /stores
    expect(stdout).toMatch(/"cart": \{\s+"items": \[\s+"lamp-1"/);
    expect(stdout).toContain('Unknown command /bogus.');
    // /reset: a new session
    expect(stdout).toContain('New session: empty transcript, no skills loaded, fresh stores.');
    const afterReset = stdout.slice(stdout.indexOf('New session'));
    expect(afterReset).toMatch(/○ shopping\s+not loaded/);
    expect(afterReset).toContain('agent › Hello again!\n');
    // The model got a fresh transcript after /reset, and nothing after /exit.
    expect(local.server.requests).toHaveLength(5);
    expect(local.server.requests[4].messages.map((m: any) => m.role)).toEqual(['system', 'user']);
    expect(stdout).not.toContain('never sent');
  });

  it('keeps going after a model error and exits 1 at the end of the input', async () => {
    const env = await openai([{ status: 400, error: 'bad request from test' }, { text: 'Recovered.' }]);
    const { code, stdout, stderr } = await runCli(['chat', AGENT], { env, stdin: 'first\nsecond\n' });
    expect(code).toBe(1);
    expect(stderr).toMatch(/error: .*bad request from test/);
    expect(stdout).toContain('agent › Recovered.');
  });

  it('saves with --session and resumes on the next run', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'skilltree-chat-'));
    const file = join(dir, 'chat.db');
    const flags = ['--session', 'chat', '--store', `sqlite:${file}`];
    const env = await openai([...shoppingSteps, { text: 'You have lamp-1.' }]);
    const first = await runCli(['chat', AGENT, ...flags], { env, stdin: 'I want a lamp\n' });
    expect(first.code).toBe(0);
    expect((await storedSession(file, 'chat')).messages).toHaveLength(8);

    const second = await runCli(['chat', AGENT, ...flags], {
      env,
      stdin: 'what is in my cart?\n/transcript\n',
    });
    expect(second.code).toBe(0);
    expect(second.stderr).toContain('Resumed 8 messages from chat (loaded: shopping).');
    expect(second.stdout).toContain('agent › You have lamp-1.');
    expect(second.stdout).toMatch(/#1 \[user\]\n {2}I want a lamp/);
    expect(second.stdout).toMatch(/#9 \[user\]\n {2}what is in my cart\?/);
    expect(local.server.requests[4].tools.map((t: any) => t.function.name)).toContain('checkout');
    expect((await storedSession(file, 'chat')).messages).toHaveLength(10);
  });

  it('a --session store that cannot be written fails before the model is called', async () => {
    const env = await openai(shoppingSteps);
    const dir = mkdtempSync(join(tmpdir(), 'skilltree-session-'));
    // A file is where the store's directory would have to be.
    writeFileSync(join(dir, 'cart.json'), '{}');
    const file = join(dir, 'cart.json', 'sessions.db');
    const { code, stdout, stderr } = await runCli(['chat', AGENT, '--session', 'cart', '--store', `sqlite:${file}`], {
      env,
      stdin: 'I want a lamp\n',
    });
    expect(code).toBe(1);
    expect(stderr).toContain(
      `skilltree: Cannot write the session store ${file}: ${join(dir, 'cart.json')} is a file, not a directory.`,
    );
    expect(stdout).not.toContain('I want a lamp');
    expect(local.server.requests).toHaveLength(0);
  });

  it('colors with FORCE_COLOR and not with NO_COLOR', async () => {
    const env = await openai([{ text: 'a' }, { text: 'b' }]);
    const colored = await runCli(['chat', AGENT], { env: { ...env, FORCE_COLOR: '1' }, stdin: 'hi\n' });
    expect(colored.stdout).toContain('\u001b[');
    const plain = await runCli(['chat', AGENT], { env: { ...env, FORCE_COLOR: '1', NO_COLOR: '1' }, stdin: 'hi\n' });
    expect(plain.stdout).not.toContain('\u001b[');
  });

  it('plays scripted:<file.json> from piped messages', async () => {
    const { code, stdout } = await runCli(['chat', AGENT, '--model', 'scripted:test/fixtures/script-lamp.json'], {
      stdin: 'lamp please\n',
    });
    expect(code).toBe(0);
    expect(stdout).toContain('agent › Your cart has lamp-1.');
  });
});

describe('skilltree chat with the demo', () => {
  it('plays demo.messages with skill loads and unloads, then exits 0', async () => {
    const { code, stdout, stderr } = await runCli(['chat', AGENT]);
    expect(stderr).toContain(`No ${keyVariables()} set: playing the module's scripted demo.`);
    expect(code).toBe(0);
    const lines = stdout.split('\n');
    expect(lines).toEqual(
      expect.arrayContaining([
        'you › I want a lamp',
        '  + skill shopping loaded',
        'agent › Added lamp-1. (1 search)',
        'you › Refund order 7',
        '  + skill refunds loaded',
        '  − skill shopping unloaded',
        'agent › Refunded order 7.',
      ]),
    );
    expect(lines.indexOf('you › Refund order 7')).toBeGreaterThan(lines.indexOf('agent › Added lamp-1. (1 search)'));
    expect(stdout).toContain('Demo finished.');
  });

  it('says that piped lines are not sent while the demo plays, and counts one scripted message in the singular', async () => {
    const { code, stdout, stderr } = await runCli(['chat', 'test/fixtures/one-message-demo.tsx'], {
      stdin: 'What about my lines?\n',
    });
    expect(code).toBe(0);
    expect(stdout).toContain('· demo: 1 scripted message\n');
    expect(stdout).not.toContain('What about my lines?');
    expect(stderr).toContain(
      `The demo plays its 1 scripted message; lines on stdin are not sent. Set ${keyVariables()}, or pass --model, to send them.`,
    );
    expect(stdout).toContain('agent › Hi there.');
  });

  it('fails clearly when there is no model and no demo', async () => {
    const { code, stderr } = await runCli(['chat', 'test/fixtures/element-agent.ts'], { stdin: 'hi\n' });
    expect(code).toBe(1);
    expect(stderr).toMatch(/^skilltree: No model:/);
  });

  it('asks y/n before a tool that needs approval: y runs it, n denies it and it does not run', async () => {
    const agent = 'test/fixtures/approval-agent.tsx';
    const model = ['--model', 'scripted:test/fixtures/script-refund.json'];
    const approved = await runCli(['chat', agent, ...model], { stdin: 'refund order 7\ny\n' });
    expect(approved.code).toBe(0);
    expect(approved.stdout).toContain('  ⚙ refund {"order":"7"}\n');
    expect(approved.stdout).toContain('  ⏸ refund {"order":"7"} waits for approval\n');
    expect(approved.stdout).toContain('? Run refund {"order":"7"}? y to approve, n to deny');
    expect(approved.stdout).toContain('    ↳ refunded order 7\n');
    expect(approved.stdout).toContain('agent › Done with order 7.\n');

    const denied = await runCli(['chat', agent, ...model], { stdin: 'refund order 7\nn\n' });
    expect(denied.code).toBe(0);
    expect(denied.stdout).toContain('    ✗ Denied: the user said no. The tool did not run.\n');
    expect(denied.stdout).not.toContain('refunded order 7');
    expect(denied.stdout).toContain('agent › Done with order 7.\n');
  });

  it('/attach PATH queues a file for the next message only; an unreadable or refused file is an error and nothing is queued', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'skilltree-attach-'));
    const png = Buffer.from(
      'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==',
      'base64',
    );
    writeFileSync(join(dir, 'photo.png'), png);
    writeFileSync(join(dir, 'note.txt'), 'Order 7 arrived broken.');
    writeFileSync(join(dir, 'evil.png'), '<!doctype html><html><script>alert(1)</script></html>');
    const env = await openai([{ text: 'A broken parcel.' }, { text: 'You are welcome.' }]);
    const { code, stdout, stderr } = await chatLines(env, [
      `/attach ${join(dir, 'photo.png')}`,
      `/attach ${join(dir, 'missing.png')}`,
      `/attach ${join(dir, 'evil.png')}`,
      `/attach "${join(dir, 'note.txt')}"`,
      '/attach',
      'What happened to my parcel?',
      'thanks',
    ]);
    expect(stdout).toContain('attached photo.png (image/png, 70 B); it goes with your next message\n');
    expect(stdout).toContain('attached note.txt (text/plain, 23 B); it goes with your next message\n');
    // `/attach` alone lists the queue.
    expect(stdout).toContain('  attached photo.png (image/png, 70 B)\n  attached note.txt (text/plain, 23 B)\n');
    expect(stderr).toContain(`Cannot attach ${join(dir, 'missing.png')}: `);
    expect(stderr).toContain(
      `Cannot attach ${join(dir, 'evil.png')}: File "evil.png" is HTML; it can carry script and is not accepted.`,
    );
    expect(stdout).toContain('agent › A broken parcel.\n');
    // The first message carried both files, as the provider's blocks; the second carried none.
    const first = local.server.requests[0].messages.at(-1);
    expect(first.role).toBe('user');
    expect(JSON.stringify(first.content)).toContain(
      `"image_url":{"url":"data:image/png;base64,${png.toString('base64')}"`,
    );
    expect(JSON.stringify(first.content)).toContain('What happened to my parcel?');
    expect(JSON.stringify(first.content)).toContain('note.txt');
    const second = local.server.requests[1].messages.at(-1);
    expect(JSON.stringify(second.content)).toContain('thanks');
    expect(JSON.stringify(second.content)).not.toContain('image_url');
    // The two refused attachments make a piped chat exit 1, like a failed turn.
    expect(code).toBe(1);
  });
});
