/**
 * Chat: the conversation as the transcript holds it. Each assistant message is one model step: its
 * reasoning (the readable text only) and text in the order the model produced them, then its tool
 * calls; tool results sit inline. Context changes (what a call added to the context, loads and
 * unloads) are styled apart by kind, read from their own part and shown as the lines the model reads; reloads and errors appear as notes between messages.
 * With a demo, the next message of its script is offered; a scripted model answers by position in
 * its script, so the chat says that typed text is ignored. Files can be attached to a message; the
 * files of user messages and tool results show as thumbnails or chips. Calls that wait for a person
 * or for the client show at the end, with their answers.
 */

import { type ContextChange, contextChangesOf } from '@skilltree/core';
import { contextChangeLine } from '@skilltree/core/provider';
import { type FormEvent, Fragment, type KeyboardEvent, type ReactElement, useEffect, useRef, useState } from 'react';
import { json } from '../format.js';
import type { ChatNote, Message, ToolAnswer, WaitingCall } from '../protocol.js';
import type { SendOutcome, Streaming } from '../useDevServer.js';
import { Attachments, filesOf, type PendingFile, PendingFiles, readPicked, textPartsOf } from './Attachments.js';
import { Panel } from './Panel.js';
import { WaitingCalls } from './Waiting.js';

export interface ChatProps {
  transcript: Message[];
  notes: ChatNote[];
  streaming: Streaming | null;
  busy: boolean;
  /** Messages before this index are outside the next request's window. */
  windowStart: number;
  /** The demo's user messages, in the order its script answers them. */
  demoMessages: string[];
  /** The model plays a script: it ignores what is typed. */
  scripted?: boolean;
  disabled?: boolean;
  /** Calls the last turn ended waiting for (approval, or a client tool's result). */
  waiting?: WaitingCall[];
  /** Sends the message; a refused file (`refused`) puts the text and files back, with the reason. */
  onSend(text: string, files: PendingFile[]): Promise<SendOutcome> | undefined;
  onAnswer?(answers: ToolAnswer[]): void;
  onReset(): void;
}

/** A message's context changes, each as the line the model reads, marked with its kind (`data-kind`). */
function ContextChanges({ changes }: { changes: ContextChange[] }) {
  if (changes.length === 0) return null;
  return (
    <ul className="context-changed" aria-label="contextChanged lines">
      {changes.map((change, i) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: changes of one message never reorder
        <li key={i} data-kind={change.kind} data-skill={change.skill}>
          {contextChangeLine(change)}
        </li>
      ))}
    </ul>
  );
}

/**
 * A reasoning block: its readable text, or a line saying the provider keeps it hidden (encrypted or
 * redacted reasoning has no text; the page never gets signatures or encrypted content).
 */
export function ReasoningView({ text }: { text: string }) {
  return (
    <details className="reasoning" data-reasoning open>
      <summary>{text ? 'reasoning' : 'reasoning (hidden by the provider)'}</summary>
      {text ? <div className="reasoning-text">{text}</div> : null}
    </details>
  );
}

/**
 * One part of an assistant message. Exhaustive over core's `AssistantPart`: a kind added there fails
 * to compile here until it is shown, even when it has a `text` field this would take for text.
 */
function AssistantPartView({ part }: { part: Extract<Message, { role: 'assistant' }>['content'][number] }) {
  switch (part.type) {
    case 'reasoning':
      return <ReasoningView text={part.text} />;
    case 'text':
      return part.text ? <div className="msg-text">{part.text}</div> : null;
    default:
      return unshown(part);
  }
}

/** Where every kind is shown: `part` is `never` here (a part from the server never gets here at run time). */
const unshown = (_part: never): null => null;

function MessageView({ message, outside }: { message: Message; outside: boolean }) {
  const cls = `msg msg-${message.role}${outside ? ' msg-outside' : ''}`;
  if (message.role === 'user') {
    const text = textPartsOf(message);
    return (
      <div className={cls} data-role="user">
        <div className="msg-label">you</div>
        {text ? <div className="msg-text">{text}</div> : null}
        <Attachments parts={filesOf(message)} />
        <ContextChanges changes={contextChangesOf(message)} />
      </div>
    );
  }
  if (message.role === 'assistant') {
    return (
      <div className={cls} data-role="assistant">
        <div className="msg-label">assistant</div>
        {message.content.map((part, i) => (
          // biome-ignore lint/suspicious/noArrayIndexKey: a committed message's parts never reorder
          <AssistantPartView key={i} part={part} />
        ))}
        {message.toolCalls?.map((call) => (
          <div className="tool-call" key={call.id} data-tool-call={call.name}>
            <span className="call-name">⚙ {call.name}</span>
            <code className="tool-input">{json(call.input).replace(/\s*\n\s*/g, ' ')}</code>
          </div>
        ))}
      </div>
    );
  }
  const text = textPartsOf(message);
  return (
    <div className={`${cls}${message.isError ? ' msg-error' : ''}`} data-role="tool">
      <div className="msg-label">
        {message.isError ? '✗' : '↳'} {message.name}
      </div>
      {text ? <div className="msg-text">{text}</div> : null}
      <Attachments parts={filesOf(message)} />
      <ContextChanges changes={contextChangesOf(message)} />
    </div>
  );
}

function NoteView({ note }: { note: ChatNote }) {
  return (
    <div
      className={`note note-${note.kind}`}
      role={note.kind === 'error' || note.kind === 'reload-error' ? 'alert' : 'status'}
    >
      {note.kind === 'reload' ? '↻ ' : note.kind === 'info' ? '' : '⚠ '}
      {note.text}
    </div>
  );
}

export function Chat(props: ChatProps) {
  const { transcript, notes, streaming, busy, windowStart, demoMessages, scripted, disabled, onSend, onReset } = props;
  const waiting = props.waiting ?? [];
  const [draft, setDraft] = useState('');
  const [files, setFiles] = useState<PendingFile[]>([]);
  const [fileError, setFileError] = useState<string | null>(null);
  const picker = useRef<HTMLInputElement>(null);
  const end = useRef<HTMLDivElement>(null);
  const count =
    transcript.length +
    notes.length +
    waiting.length +
    (streaming?.text.length ?? 0) +
    (streaming?.reasoning.length ?? 0);
  // biome-ignore lint/correctness/useExhaustiveDependencies: scroll when anything new arrives
  useEffect(() => {
    end.current?.scrollIntoView?.({ block: 'end' });
  }, [count]);

  const submit = (event?: FormEvent) => {
    event?.preventDefault();
    const text = draft.trim();
    if ((!text && files.length === 0) || busy || disabled) return;
    const sent = files;
    setDraft('');
    setFiles([]);
    setFileError(null);
    // A refused file recorded nothing: the text and the files come back, with core's reason.
    void onSend(text, sent)?.then((outcome) => {
      if (!outcome?.refused) return;
      setFileError(outcome.refused);
      setDraft((now) => (now === '' ? text : now));
      setFiles((now) => (now.length === 0 ? sent : now));
    });
  };
  const pick = async (list: FileList | null) => {
    if (!list || list.length === 0) return;
    setFileError(null);
    try {
      const picked = await readPicked(Array.from(list));
      setFiles((now) => [...now, ...picked]);
    } catch (error) {
      setFileError((error as Error).message);
    } finally {
      if (picker.current) picker.current.value = '';
    }
  };
  const onKeyDown = (event: KeyboardEvent<HTMLTextAreaElement>) => {
    if (event.key === 'Enter' && !event.shiftKey) submit(event);
  };
  // The script answers the demo's messages in order, whatever was typed: the next one is at the
  // position of the next user message.
  const nextDemo = demoMessages[transcript.filter((m) => m.role === 'user').length];
  const typed = draft.trim();
  const offScript = scripted === true && typed !== '' && typed !== nextDemo;

  const rows: ReactElement[] = [];
  const notesAt = (index: number) => notes.filter((n) => n.after === index);
  for (const note of notesAt(0)) rows.push(<NoteView key={`n${note.at}-${note.text}`} note={note} />);
  transcript.forEach((message, i) => {
    rows.push(
      // The transcript only grows: a message's index is its identity.
      // biome-ignore lint/suspicious/noArrayIndexKey: see above
      <Fragment key={`m${i}`}>
        {i === windowStart && windowStart > 0 ? (
          <div className="window-cut" title="Older messages are not sent to the model">
            ✂ the next request's window starts here
          </div>
        ) : null}
        <MessageView message={message} outside={i < windowStart} />
      </Fragment>,
    );
    for (const note of notesAt(i + 1)) rows.push(<NoteView key={`n${note.at}-${note.text}`} note={note} />);
  });
  const orphanNotes = notes.filter((n) => n.after > transcript.length);
  for (const note of orphanNotes) rows.push(<NoteView key={`o${note.at}-${note.text}`} note={note} />);

  return (
    <Panel
      id="chat"
      title="Chat"
      className="chat"
      extra={
        <button type="button" className="ghost" onClick={onReset} disabled={busy}>
          Reset
        </button>
      }
    >
      <div className="chat-log" aria-live="polite">
        {transcript.length === 0 && notes.length === 0 ? (
          <p className="empty">No messages yet. Say something to the agent.</p>
        ) : null}
        {rows}
        {streaming && streaming.index >= transcript.length ? (
          <div className="msg msg-assistant msg-streaming" data-role="assistant">
            <div className="msg-label">assistant</div>
            {streaming.reasoning ? <ReasoningView text={streaming.reasoning} /> : null}
            {streaming.text || !streaming.reasoning ? (
              <div className="msg-text">
                {streaming.text}
                <span className="cursor">▍</span>
              </div>
            ) : null}
          </div>
        ) : busy ? (
          <div className="thinking">the agent is working…</div>
        ) : null}
        <WaitingCalls calls={waiting} busy={busy} onAnswer={(answers) => props.onAnswer?.(answers)} />
        <div ref={end} />
      </div>
      <PendingFiles files={files} onRemove={(index) => setFiles((now) => now.filter((_, i) => i !== index))} />
      {fileError ? (
        <div className="file-error" role="alert" data-file-error>
          Not sent: {fileError}
        </div>
      ) : null}
      <form className="chat-form" onSubmit={submit}>
        <input
          ref={picker}
          type="file"
          multiple
          hidden
          aria-label="Attach files"
          onChange={(e) => void pick(e.target.files)}
        />
        <button
          type="button"
          className="ghost attach"
          title="Attach files (images, PDF, text)"
          onClick={() => picker.current?.click()}
          disabled={disabled}
        >
          Attach
        </button>
        <textarea
          aria-label="Message"
          placeholder={disabled ? 'The agent is not loaded' : 'Message the agent (Enter to send)'}
          value={draft}
          rows={2}
          onChange={(e) => setDraft(e.target.value)}
          onKeyDown={onKeyDown}
          disabled={disabled}
        />
        <button type="submit" disabled={busy || disabled || (draft.trim() === '' && files.length === 0)}>
          {busy ? 'Working…' : 'Send'}
        </button>
      </form>
      {scripted || nextDemo ? (
        <div className={`demo${offScript ? ' demo-ignored' : ''}`} role="note" aria-label="Demo">
          {scripted ? (
            <span className="demo-scripted">
              {offScript
                ? 'The scripted model ignores what you typed: it replies with the next step of its script.'
                : 'Scripted model: it replies from its script and ignores what you type.'}{' '}
            </span>
          ) : null}
          {nextDemo ? (
            <>
              {scripted ? 'Next in the script: ' : 'demo: '}
              <button type="button" className="chip" onClick={() => setDraft(nextDemo)} disabled={busy || disabled}>
                {nextDemo}
              </button>
            </>
          ) : scripted && demoMessages.length > 0 ? (
            <span>The demo's messages are all sent: Reset to play it again.</span>
          ) : null}
        </div>
      ) : null}
    </Panel>
  );
}
