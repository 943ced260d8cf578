/**
 * The `refund` tools the approval tests offer: each waits for a person's approval (or, with a
 * `limit`, only past it) and records every run in `ran`, so a test sees what ran and how often.
 */
import { ApprovedRefundTool } from '@skilltree/test-kit';
import { z } from 'zod';
import { Agent, Tool } from '../src/index.js';

/** An agent with one tool, `refund` (`{ order }`), that needs approval; a run records its order and answers `refunded <order>`. */
export function OrderRefunds({ ran }: { ran: string[] }) {
  return (
    <Agent>
      <ApprovedRefundTool
        run={(order) => {
          ran.push(order);
          return `refunded ${order}`;
        }}
      />
    </Agent>
  );
}

/**
 * The tool `refund` (`{ order, cents }`): it needs approval (with a `limit`, only for more cents than
 * that); a run records `<order>:<cents>` and answers `refunded <cents> on <order>`.
 */
export function CentsRefund({ ran, limit = 0 }: { ran: string[]; limit?: number }) {
  return (
    <Tool
      name="refund"
      description="Refund an order"
      input={z.object({ order: z.string(), cents: z.number() })}
      needsApproval={limit > 0 ? ({ cents }) => cents > limit : true}
      run={({ order, cents }) => {
        ran.push(`${order}:${cents}`);
        return `refunded ${cents} on ${order}`;
      }}
    />
  );
}
