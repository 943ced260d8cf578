/**
 * How each part of a message shows: text, the model's reasoning, attached files, tool calls (with
 * Approve and Deny for a call that waits for a person) and skilltree's `data-*` parts.
 */
import type { SkilltreeUIMessage } from '@skilltree/server';

type Part = SkilltreeUIMessage['parts'][number];
type ToolPart = Extract<Part, { type: 'dynamic-tool' }>;
type FilePart = Extract<Part, { type: 'file' }>;

/** Answers a call that waits for approval (useChat's `addToolApprovalResponse`). */
export type Answer = (approvalId: string, approved: boolean) => void;

const MARKS: Partial<Record<ToolPart['state'], string>> = {
  'output-available': '✓',
  'output-error': '✗',
  'output-denied': '✗',
  'approval-requested': '?',
};

function Approval({ part, answer }: { part: Extract<ToolPart, { state: 'approval-requested' }>; answer: Answer }) {
  return (
    <div className="approval">
      <span>This call waits for your approval.</span>
      <button type="button" onClick={() => answer(part.approval.id, true)}>
        Approve
      </button>
      <button type="button" onClick={() => answer(part.approval.id, false)}>
        Deny
      </button>
    </div>
  );
}

function Tool({ part, answer }: { part: ToolPart; answer: Answer }) {
  return (
    // A waiting call is open: its buttons show without a click.
    <details
      className={`tool ${part.state}`}
      data-tool={part.toolName}
      data-state={part.state}
      open={part.state === 'approval-requested'}
    >
      <summary>
        {MARKS[part.state] ?? '…'} {part.toolName}({JSON.stringify(part.input ?? {})})
      </summary>
      {part.state === 'approval-requested' && <Approval part={part} answer={answer} />}
      {part.state === 'approval-responded' && (
        <pre>
          {part.approval.approved
            ? 'Approved: running…'
            : `Denied${part.approval.reason ? `: ${part.approval.reason}` : '.'}`}
        </pre>
      )}
      {part.state === 'output-available' && <pre>{String(part.output)}</pre>}
      {part.state === 'output-error' && <pre>{part.errorText}</pre>}
    </details>
  );
}

/** An attachment: images show as themselves, other files as a link. */
function Attachment({ part }: { part: FilePart }) {
  const name = part.filename ?? part.mediaType;
  if (part.mediaType.startsWith('image/')) {
    return <img className="attachment" src={part.url} alt={name} data-media-type={part.mediaType} />;
  }
  return (
    <a className="attachment" href={part.url} download={part.filename}>
      {name}
    </a>
  );
}

/** One part of a message. `answer` approves or denies a waiting call. */
export function MessagePart({ part, answer }: { part: Part; answer: Answer }) {
  switch (part.type) {
    case 'text':
      return <div className="text">{part.text}</div>;
    case 'reasoning':
      return <div className="reasoning">{part.text}</div>;
    case 'file':
      return <Attachment part={part} />;
    case 'dynamic-tool':
      return <Tool part={part} answer={answer} />;
    case 'data-skill-loaded':
      return (
        <div className="skill" data-skill-loaded={part.data.name}>
          loaded skill <b>{part.data.name}</b>
        </div>
      );
    case 'data-skill-unloaded':
      return (
        <div className="skill" data-skill-unloaded={part.data.name}>
          unloaded skill <b>{part.data.name}</b>
        </div>
      );
    case 'data-context-changed':
      return <div className="changed">{part.data.lines.join('\n')}</div>;
    default:
      return null;
  }
}
