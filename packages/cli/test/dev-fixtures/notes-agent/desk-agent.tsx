/**
 * A support desk for the playground's files and approvals tests. Its model answers by rules, not by
 * position in a script, so tests can send messages in any order:
 * - a message with files: it names each file it received (so a test sees the request carried them);
 * - "refund": it calls `refund`, which needs a person's approval and counts its runs;
 * - "screenshot": it calls `screenshot`, which returns a PNG;
 * - "color": it calls `pick_color`, a client tool (no `run`) whose result the page gives;
 * - after a tool result: it repeats what the tool said (a denial included).
 */
import { Agent, Instructions, type Model, Tool, textOf, toolResult } from '@skilltree/core';
import type { ModelResponse } from '@skilltree/core/provider';
import { ApprovedRefundTool } from '@skilltree/test-kit';
import { z } from 'zod';

/** A 1×1 PNG. */
export const PIXEL_PNG =
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==';

let refunds = 0;

export default function DeskAgent() {
  return (
    <Agent>
      <Instructions>You help customers with their orders.</Instructions>
      <ApprovedRefundTool
        run={(order) => {
          refunds++;
          return `Refunded ${order} (run ${refunds}).`;
        }}
      />
      <Tool
        name="screenshot"
        description="The order page as it looks now"
        input={z.object({})}
        run={() => toolResult('The order page:', { data: PIXEL_PNG, mediaType: 'image/png', filename: 'order.png' })}
      />
      <Tool name="pick_color" description="Ask the user for a color" input={z.object({})} />
    </Agent>
  );
}

function rulesModel(): Model {
  let calls = 0;
  const call = (name: string, input: unknown): ModelResponse => ({
    text: '',
    toolCalls: [{ id: `desk_${++calls}`, name, input }],
  });
  return {
    name: 'desk-rules',
    async generate(req) {
      const last = req.messages.at(-1);
      if (!last) return { text: 'Hello.', toolCalls: [] };
      if (last.role === 'tool') return { text: `${last.name} said: ${textOf(last)}`, toolCalls: [] };
      const files = last.content.flatMap((part) => (part.type === 'file' ? [part] : []));
      if (files.length > 0) {
        const named = files.map((f) => `${f.filename ?? 'a file'} (${f.mediaType}, ${f.data ? 'bytes' : 'url'})`);
        return { text: `I received ${named.join(', ')}.`, toolCalls: [] };
      }
      const text = textOf(last);
      if (/refund/i.test(text)) return call('refund', { order: 'A-1' });
      if (/screenshot/i.test(text)) return call('screenshot', {});
      if (/colou?r/i.test(text)) return call('pick_color', {});
      return { text: 'How can I help?', toolCalls: [] };
    },
  };
}

export const demo = { messages: ['Refund order A-1'], model: rulesModel };
