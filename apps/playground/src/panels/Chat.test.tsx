import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { makeState, transcript } from '../../test/state.js';
import { Chat, type ChatProps } from './Chat.js';

function renderChat(props: Partial<ChatProps> = {}) {
  const onSend = vi.fn();
  const onReset = vi.fn();
  const state = makeState();
  render(
    <Chat
      transcript={state.transcript}
      notes={state.notes}
      streaming={null}
      busy={false}
      windowStart={0}
      demoMessages={[]}
      onSend={onSend}
      onReset={onReset}
      {...props}
    />,
  );
  return { onSend, onReset };
}

describe('Chat', () => {
  it('shows messages, tool calls inline and contextChanged lines apart from the text', () => {
    renderChat();
    expect(screen.getByText('Remember to buy milk')).toBeTruthy();
    expect(screen.getByText('Noted: buy milk.')).toBeTruthy();
    const call = document.querySelector('[data-tool-call=add_note]')!;
    expect(call.textContent).toContain('"text": "buy milk"');
    const changed = screen.getAllByLabelText('contextChanged lines');
    expect(changed).toHaveLength(2);
    expect(
      within(changed[0])
        .getAllByRole('listitem')
        .map((li) => li.textContent),
    ).toEqual(['contextChanged notes loaded', 'contextChanged notes added: Notes: none']);
    // The tool result's own text stays outside the contextChanged list.
    expect(screen.getByText('Loaded skill "notes"; it is now active.').closest('.context-changed')).toBeNull();
  });

  it("shows each step's reasoning before its text, the readable text only, and says when the provider hides it", () => {
    renderChat();
    const steps = [...document.querySelectorAll('[data-role=assistant]')];
    const first = steps[0];
    const reasoning = first.querySelector('[data-reasoning]')!;
    expect(reasoning.textContent).toContain('The notes skill can add notes.');
    // Reasoning comes first, as the model produced it.
    expect(first.textContent!.indexOf('The notes skill')).toBeLessThan(first.textContent!.indexOf('Let me open'));
    expect(steps[1].querySelector('[data-reasoning]')!.textContent).toBe('reasoning (hidden by the provider)');
    expect(steps[2].querySelector('[data-reasoning]')).toBeNull();
    // Signatures and redacted data never reach the page's text.
    const log = document.querySelector('.chat-log')!.textContent!;
    expect(log).not.toContain('c2lnbmVk');
    expect(log).not.toContain('cmVkYWN0ZWQ=');
  });

  it('streams reasoning, then the text, into the message being written', () => {
    renderChat({ busy: true, streaming: { text: '', reasoning: 'Which notes exist', index: transcript.length } });
    const streamed = document.querySelector('.msg-streaming')!;
    expect(streamed.querySelector('[data-reasoning]')!.textContent).toContain('Which notes exist');
    cleanup();
    renderChat({
      busy: true,
      streaming: { text: 'You have', reasoning: 'Which notes exist', index: transcript.length },
    });
    expect(document.querySelector('.msg-streaming')!.textContent).toContain('You have');
  });

  it('sends with the button and with Enter, then clears the box', () => {
    const { onSend } = renderChat();
    const box = screen.getByLabelText('Message') as HTMLTextAreaElement;
    fireEvent.change(box, { target: { value: 'hello' } });
    fireEvent.click(screen.getByRole('button', { name: 'Send' }));
    expect(onSend).toHaveBeenCalledWith('hello', []);
    expect(box.value).toBe('');
    fireEvent.change(box, { target: { value: 'again' } });
    fireEvent.keyDown(box, { key: 'Enter' });
    expect(onSend).toHaveBeenLastCalledWith('again', []);
  });

  it('does not send while a turn runs and shows the streamed text', () => {
    const { onSend } = renderChat({
      busy: true,
      streaming: { text: 'Thinking about mi', reasoning: '', index: transcript.length },
    });
    expect(screen.getByText('Thinking about mi')).toBeTruthy();
    const box = screen.getByLabelText('Message');
    fireEvent.change(box, { target: { value: 'hello' } });
    fireEvent.keyDown(box, { key: 'Enter' });
    expect(onSend).not.toHaveBeenCalled();
    expect((screen.getByRole('button', { name: 'Working…' }) as HTMLButtonElement).disabled).toBe(true);
  });

  it('shows reload and error notes where they happened, and the window cut', () => {
    renderChat({
      windowStart: 2,
      notes: [
        { kind: 'reload', text: 'Reloaded notes.tsx: tool clear_notes added', after: 6, at: 1 },
        { kind: 'error', text: 'scriptedModel ran out of steps', after: 3, at: 2 },
      ],
    });
    const log = document.querySelector('.chat-log')!;
    const text = log.textContent!;
    expect(text.indexOf('out of steps')).toBeGreaterThan(text.indexOf('Loaded skill'));
    expect(text.indexOf('Reloaded notes.tsx')).toBeGreaterThan(text.indexOf('Noted: buy milk.'));
    expect(screen.getByRole('alert').textContent).toContain('scriptedModel ran out of steps');
    expect(screen.getByText(/window starts here/)).toBeTruthy();
    expect(document.querySelectorAll('.msg-outside')).toHaveLength(2);
  });

  it('offers the next demo message and resets', () => {
    const { onReset } = renderChat({ demoMessages: ['Remember to buy milk', 'What are my notes?'], scripted: false });
    expect(screen.getByRole('note', { name: 'Demo' }).textContent).toBe('demo: What are my notes?');
    fireEvent.click(screen.getByRole('button', { name: 'What are my notes?' }));
    expect((screen.getByLabelText('Message') as HTMLTextAreaElement).value).toBe('What are my notes?');
    fireEvent.click(screen.getByRole('button', { name: 'Reset' }));
    expect(onReset).toHaveBeenCalled();
  });

  it("follows the script: the suggestion is the script's next message, even after something else was typed", () => {
    // The user typed their own first message; the script answered it with its first step anyway.
    renderChat({
      transcript: [
        { role: 'user', content: [{ type: 'text', text: 'hello there' }] },
        { role: 'assistant', content: [{ type: 'text', text: 'Noted: buy milk.' }] },
      ],
      demoMessages: ['Remember to buy milk', 'What are my notes?'],
      scripted: true,
    });
    const demo = screen.getByRole('note', { name: 'Demo' });
    expect(within(demo).getByRole('button').textContent).toBe('What are my notes?');
    expect(demo.textContent).toContain('Next in the script: What are my notes?');
  });

  it('says that a scripted model ignores typed input, louder when the text is not the next scripted message', () => {
    renderChat({ demoMessages: ['Remember to buy milk', 'What are my notes?'], scripted: true });
    const demo = screen.getByRole('note', { name: 'Demo' });
    expect(demo.textContent).toContain('Scripted model: it replies from its script and ignores what you type.');
    expect(demo.className).not.toContain('demo-ignored');
    const box = screen.getByLabelText('Message');
    fireEvent.change(box, { target: { value: 'Tell me a joke' } });
    expect(demo.className).toContain('demo-ignored');
    expect(demo.textContent).toContain('The scripted model ignores what you typed');
    fireEvent.change(box, { target: { value: 'What are my notes?' } });
    expect(demo.className).not.toContain('demo-ignored');
  });

  it('says when the demo script has no messages left, and says nothing for a real model without a demo', () => {
    renderChat({ demoMessages: ['Remember to buy milk'], scripted: true });
    expect(screen.getByRole('note', { name: 'Demo' }).textContent).toContain('all sent: Reset to play it again');
    cleanup();
    renderChat({ demoMessages: [], scripted: false });
    expect(screen.queryByRole('note', { name: 'Demo' })).toBeNull();
  });

  it('shows user files and files a tool returned: images as thumbnails, other files as name, media type and size', () => {
    const png = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==';
    renderChat({
      transcript: [
        {
          role: 'user',
          content: [
            { type: 'text', text: 'Here it is' },
            { type: 'file', mediaType: 'image/png', data: png, filename: 'parcel.png' },
            { type: 'file', mediaType: 'application/pdf', data: 'JVBERi0xLjQK', filename: 'invoice.pdf' },
          ],
        },
        { role: 'assistant', content: [], toolCalls: [{ id: 'c1', name: 'screenshot', input: {} }] },
        {
          role: 'tool',
          toolCallId: 'c1',
          name: 'screenshot',
          content: [
            { type: 'text', text: 'The page:' },
            { type: 'file', mediaType: 'image/png', data: png, filename: 'page.png' },
          ],
        },
      ],
    });
    const thumb = screen.getByAltText('parcel.png') as HTMLImageElement;
    expect(thumb.src).toBe(`data:image/png;base64,${png}`);
    expect(screen.getByAltText('page.png').closest('[data-role=tool]')).toBeTruthy();
    const pdf = document.querySelector('[data-attachment="invoice.pdf"]')!;
    expect(pdf.querySelector('img')).toBeNull();
    expect(pdf.textContent).toBe('invoice.pdfapplication/pdf, 9 B');
    // The text is the message's own; files are not repeated in it as [file: …].
    expect(screen.getByText('Here it is')).toBeTruthy();
    expect(document.querySelector('.chat-log')!.textContent).not.toContain('[file:');
  });

  it('attaches picked files to the next message and sends a message of files only', async () => {
    const { onSend } = renderChat();
    const picker = screen.getByLabelText('Attach files') as HTMLInputElement;
    const file = new File(['hello'], 'note.txt', { type: 'text/plain' });
    fireEvent.change(picker, { target: { files: [file] } });
    await screen.findByRole('list', { name: 'Files to send' });
    expect(document.querySelector('[data-pending="note.txt"]')!.textContent).toContain('text/plain, 5 B');
    fireEvent.click(screen.getByRole('button', { name: 'Send' }));
    expect(onSend).toHaveBeenCalledWith('', [
      { name: 'note.txt', mediaType: 'text/plain', size: 5, dataUrl: 'data:text/plain;base64,aGVsbG8=' },
    ]);
    expect(screen.queryByRole('list', { name: 'Files to send' })).toBeNull();
  });

  it('a refused file puts the message and its files back, with the reason, and nothing is sent', async () => {
    const onSend = vi.fn(async () => ({ refused: 'File "evil.png" is HTML declared as image/png.' }));
    renderChat({ onSend });
    const picker = screen.getByLabelText('Attach files') as HTMLInputElement;
    fireEvent.change(picker, { target: { files: [new File(['<html>'], 'evil.png', { type: 'image/png' })] } });
    await screen.findByRole('list', { name: 'Files to send' });
    const box = screen.getByLabelText('Message') as HTMLTextAreaElement;
    fireEvent.change(box, { target: { value: 'look' } });
    fireEvent.click(screen.getByRole('button', { name: 'Send' }));
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toBe('Not sent: File "evil.png" is HTML declared as image/png.');
    await waitFor(() => expect(box.value).toBe('look'));
    expect(document.querySelector('[data-pending="evil.png"]')).toBeTruthy();
  });

  it('shows calls that wait with Approve and Deny (with a reason), and a result box for a client tool', () => {
    const onAnswer = vi.fn();
    renderChat({
      onAnswer,
      waiting: [
        { toolCallId: 'c1', name: 'refund', input: { order: 'A-1' }, for: 'approval', skill: null, status: 'waiting' },
        { toolCallId: 'c2', name: 'pick_color', input: {}, for: 'client', skill: 'paint', status: 'waiting' },
      ],
    });
    const refund = document.querySelector('[data-waiting=refund]') as HTMLElement;
    expect(refund.textContent).toContain('waits for your approval');
    expect(refund.textContent).toContain('"order": "A-1"');
    fireEvent.click(within(refund).getByRole('button', { name: 'Approve' }));
    expect(onAnswer).toHaveBeenLastCalledWith([{ toolCallId: 'c1', type: 'approve' }]);
    fireEvent.change(within(refund).getByLabelText('Reason to deny refund'), { target: { value: ' too much ' } });
    fireEvent.click(within(refund).getByRole('button', { name: 'Deny' }));
    expect(onAnswer).toHaveBeenLastCalledWith([{ toolCallId: 'c1', type: 'deny', reason: 'too much' }]);

    const color = document.querySelector('[data-waiting=pick_color]') as HTMLElement;
    expect(within(color).queryByRole('button', { name: 'Approve' })).toBeNull();
    fireEvent.change(within(color).getByLabelText('Result of pick_color'), { target: { value: '{"color":"teal"}' } });
    fireEvent.click(within(color).getByRole('button', { name: 'Send result' }));
    expect(onAnswer).toHaveBeenLastCalledWith([{ toolCallId: 'c2', type: 'result', output: { color: 'teal' } }]);
    fireEvent.change(within(color).getByLabelText('Result of pick_color'), { target: { value: 'teal' } });
    fireEvent.click(within(color).getByRole('button', { name: 'Send result' }));
    expect(onAnswer).toHaveBeenLastCalledWith([{ toolCallId: 'c2', type: 'result', output: 'teal' }]);
  });

  it('names the subagent run a call waits in, and answers it by its own id', () => {
    const onAnswer = vi.fn();
    renderChat({
      onAnswer,
      waiting: [
        {
          toolCallId: 'call_r1_1',
          name: 'refund',
          input: {},
          for: 'approval',
          skill: null,
          status: 'waiting',
          path: ['refunder', 'refund'],
        },
      ],
    });
    const refund = document.querySelector('[data-waiting=refund]') as HTMLElement;
    expect(refund.querySelector('[data-run-path]')?.textContent).toBe(' (in subagent refunder)');
    fireEvent.click(within(refund).getByRole('button', { name: 'Approve' }));
    expect(onAnswer).toHaveBeenLastCalledWith([{ toolCallId: 'call_r1_1', type: 'approve' }]);
  });

  it('answers nothing while a turn runs', () => {
    renderChat({
      busy: true,
      waiting: [{ toolCallId: 'c1', name: 'refund', input: {}, for: 'approval', skill: null, status: 'waiting' }],
    });
    expect((screen.getByRole('button', { name: 'Approve' }) as HTMLButtonElement).disabled).toBe(true);
    expect((screen.getByRole('button', { name: 'Deny' }) as HTMLButtonElement).disabled).toBe(true);
  });
});
