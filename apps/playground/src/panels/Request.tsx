/**
 * Request: the next request exactly as the model will receive it — system prompt,
 * `<current_context>` (and where it is placed), tools with their JSON Schema, and the messages:
 * the whole transcript with a cut line where the window starts.
 */
import { Fragment } from 'react';
import { formatBytes, json } from '../format.js';
import type { Message, ModelRequest, SessionConfig } from '../protocol.js';
import { Panel } from './Panel.js';

export interface RequestProps {
  request: ModelRequest | null;
  requestError: string | null;
  transcript: Message[];
  windowStart: number;
  config: SessionConfig | null;
  /** Where core placed the context: `'system'`, or its message's index in `request.messages` (see DevState). */
  placed: 'system' | number | null;
}

function messageText(message: Message): string {
  if (message.role === 'assistant') {
    const calls = (message.toolCalls ?? []).map((c) => `→ ${c.name}(${JSON.stringify(c.input)}) [${c.id}]`);
    return [message.content, ...calls].filter(Boolean).join('\n');
  }
  if (message.role === 'tool') return `[${message.toolCallId}]${message.isError ? ' (error)' : ''}\n${message.content}`;
  return message.content;
}

export function Request({ request, requestError, transcript, windowStart, config, placed }: RequestProps) {
  if (!request) {
    return (
      <Panel id="request" title="Request">
        <div className="error-box" role="alert">
          {requestError ? `No request can be built: ${requestError}` : 'The agent is not loaded.'}
        </div>
      </Panel>
    );
  }
  const size = new TextEncoder().encode(
    JSON.stringify({
      system: request.system,
      context: request.context,
      tools: request.tools,
      messages: request.messages,
    }),
  ).length;
  // The transcript index of the message that carries the context (the transcript's length: a new
  // user message after it), or -1 when it goes into the system prompt.
  const target = typeof placed === 'number' ? windowStart + placed : -1;
  const sent = transcript.length - windowStart;
  return (
    <Panel
      id="request"
      title="Request"
      extra={
        <span className="muted">
          {request.tools.length} tools · {sent} of {transcript.length} messages · {formatBytes(size)}
        </span>
      }
    >
      <details open className="req-section">
        <summary>
          System <span className="muted">({request.system.length} chars)</span>
        </summary>
        <pre className="prompt" data-testid="request-system">
          {request.system}
          {placed === 'system' ? `\n\n${request.context}` : ''}
        </pre>
      </details>
      <details open className="req-section">
        <summary>
          Context{' '}
          <span className="muted">
            {placed === 'system'
              ? '(appended to the system prompt)'
              : '(appended to the last user-role message; the system prompt and older messages stay byte-identical)'}
          </span>
        </summary>
        <pre className="prompt context" data-testid="request-context">
          {request.context}
        </pre>
      </details>
      <details open className="req-section">
        <summary>
          Tools <span className="muted">({request.tools.length})</span>
        </summary>
        <ul className="tool-list" aria-label="Tools in the request">
          {request.tools.map((tool) => (
            <li key={tool.name} data-tool={tool.name}>
              <details>
                <summary>
                  <code className="tool-name">{tool.name}</code> <span className="muted">{tool.description}</span>
                </summary>
                <pre className="schema">{json(tool.inputSchema)}</pre>
              </details>
            </li>
          ))}
        </ul>
      </details>
      <details open className="req-section">
        <summary>
          Messages{' '}
          <span className="muted">
            ({sent} sent of {transcript.length} in the transcript
            {config ? `; window: at most ${config.maxTranscriptMessages}, starting at a user message` : ''})
          </span>
        </summary>
        <ol className="req-messages" start={0}>
          {transcript.map((message, i) => (
            // biome-ignore lint/suspicious/noArrayIndexKey: the transcript only grows, its index is the identity
            <Fragment key={i}>
              {i === windowStart ? (
                <li className="window-cut" aria-label="window start">
                  ✂ window: the model receives the {sent} messages below
                  {windowStart > 0 ? ` (the ${windowStart} above are not sent)` : ''}
                </li>
              ) : null}
              <li className={`req-msg req-${message.role}${i < windowStart ? ' outside' : ''}`}>
                <span className="role">{message.role === 'tool' ? `tool ${message.name}` : message.role}</span>
                <pre>{messageText(message)}</pre>
                {i === target ? <pre className="placed-context">{`\n\n${request.context}`}</pre> : null}
              </li>
            </Fragment>
          ))}
          {target === transcript.length ? (
            <li className="req-msg req-user">
              <span className="role">user</span>
              <pre className="placed-context">{request.context}</pre>
            </li>
          ) : null}
        </ol>
      </details>
    </Panel>
  );
}
