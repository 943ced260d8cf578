/**
 * Where the example's refunds go: a ledger in memory, standing in for your payment provider. The
 * `refund` tool needs a person's approval, so an entry appears here only after someone clicked
 * Approve, and once per approved call.
 */

/** A refund that was issued. */
export interface Refund {
  /** The order refunded. */
  order: string;
  /** The chat the refund was approved in. */
  chat: string;
}

/** The refunds issued so far, and the way to issue one. */
export interface Refunds {
  /** Every refund issued, oldest first. */
  readonly issued: readonly Refund[];
  /** Issues a refund and returns its confirmation number. */
  issue(refund: Refund): string;
}

/** An empty ledger in memory. Replace it with a call to your payment provider. */
export function createRefunds(): Refunds {
  const issued: Refund[] = [];
  return {
    issued,
    issue(refund) {
      issued.push({ ...refund });
      return `R-${String(issued.length).padStart(4, '0')}`;
    },
  };
}
