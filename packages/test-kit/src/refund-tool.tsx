/**
 * The tool the approval tests share: a refund that waits for the user's approval before it runs
 * (`needsApproval`), so a test can see a call wait, then approve or deny it.
 */
import { Tool } from '@skilltree/core';
import { z } from 'zod';

/** What the refund does once approved: `run` gets the order and returns the tool's result. */
export interface ApprovedRefundToolProps {
  run(order: string): string;
}

/** `<Tool name="refund" input={{ order: string }} needsApproval>`. */
export function ApprovedRefundTool({ run }: ApprovedRefundToolProps) {
  return (
    <Tool
      name="refund"
      description="Refund an order"
      input={z.object({ order: z.string() })}
      needsApproval
      run={({ order }) => run(order)}
    />
  );
}
