import { Tool } from '@skilltree/core';
import { createElement as h, type ReactNode } from 'react';

/**
 * The `refund` tool the approval and subagent topics offer: it waits for a person's approval and,
 * each time it runs, adds the chat's `id` to `ran`, so a test sees a call run at most once.
 */
export function refundTool(ran: string[], id: string): ReactNode {
  return h(Tool, {
    name: 'refund',
    description: 'Refunds the order.',
    needsApproval: true,
    run: () => {
      ran.push(id);
      return 'refunded';
    },
  });
}
