/**
 * Calls the last turn ended waiting for, each with its answer: Approve or Deny (with an optional
 * reason) for a tool that needs approval; a result typed here, or Deny, for a client tool (a tool
 * without `run`). The session keeps them, so they are here again after a reload of the page.
 */
import { useState } from 'react';
import { json } from '../format.js';
import type { ToolAnswer, WaitingCall } from '../protocol.js';

export interface WaitingCallsProps {
  calls: WaitingCall[];
  /** A turn runs: answers wait for it. */
  busy: boolean;
  onAnswer(answers: ToolAnswer[]): void;
}

/** What the typed result of a client tool is: JSON when it parses, else the text as it is. */
export function parseResult(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

function WaitingCallView({
  call,
  busy,
  onAnswer,
}: {
  call: WaitingCall;
  busy: boolean;
  onAnswer: WaitingCallsProps['onAnswer'];
}) {
  const [reason, setReason] = useState('');
  const [result, setResult] = useState('');
  const id = call.toolCallId;
  const deny = () => onAnswer([{ toolCallId: id, type: 'deny', ...(reason.trim() ? { reason: reason.trim() } : {}) }]);
  const running = call.status === 'running';
  return (
    <div className="waiting-call" data-waiting={call.name} data-tool-call-id={id} data-for={call.for}>
      <div className="waiting-title">
        <span className="call-name">⏸ {call.name}</span>{' '}
        {running
          ? 'approved: running'
          : call.for === 'approval'
            ? 'waits for your approval'
            : 'runs in the client: it waits for its result'}
        {call.skill ? <span className="muted"> (skill {call.skill})</span> : null}
        {call.path && call.path.length > 1 ? (
          <span className="muted" data-run-path>
            {' '}
            (in subagent {call.path.slice(0, -1).join(' › ')})
          </span>
        ) : null}
      </div>
      <code className="tool-input">{json(call.input).replace(/\s*\n\s*/g, ' ')}</code>
      {running ? null : (
        <div className="waiting-actions">
          {call.for === 'approval' ? (
            <button type="button" disabled={busy} onClick={() => onAnswer([{ toolCallId: id, type: 'approve' }])}>
              Approve
            </button>
          ) : (
            <>
              <textarea
                aria-label={`Result of ${call.name}`}
                placeholder="its result: JSON, or text"
                rows={1}
                value={result}
                onChange={(e) => setResult(e.target.value)}
              />
              <button
                type="button"
                disabled={busy || result.trim() === ''}
                onClick={() => onAnswer([{ toolCallId: id, type: 'result', output: parseResult(result.trim()) }])}
              >
                Send result
              </button>
            </>
          )}
          <input
            aria-label={`Reason to deny ${call.name}`}
            placeholder="reason (optional)"
            value={reason}
            onChange={(e) => setReason(e.target.value)}
          />
          <button type="button" className="deny" disabled={busy} onClick={deny}>
            Deny
          </button>
        </div>
      )}
    </div>
  );
}

/** The calls that wait, or nothing when none does. */
export function WaitingCalls({ calls, busy, onAnswer }: WaitingCallsProps) {
  if (calls.length === 0) return null;
  return (
    <section className="waiting-calls" aria-label="Waiting calls">
      {calls.map((call) => (
        <WaitingCallView key={call.toolCallId} call={call} busy={busy} onAnswer={onAnswer} />
      ))}
      <p className="muted small">
        The turn goes on once every call is answered. A new message instead answers them as not run (superseded).
      </p>
    </section>
  );
}
