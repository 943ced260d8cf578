/**
 * The transcript window: the newest part of the transcript that a request carries.
 */
import type { Message } from './types.js';

/**
 * Index of the first message of the window, given the ascending indices of the transcript's user
 * messages.
 *
 * The window holds at most `max` messages and starts at a user message. When the newest user
 * message is older than the cap, the window starts there anyway: a turn is never cut in half, so
 * no tool result loses its call. Runs in O(log n): a request never scans the whole transcript.
 */
export function windowStart(transcript: readonly Message[], userIndices: readonly number[], max: number): number {
  const earliest = Math.max(0, transcript.length - Math.max(1, max));
  if (userIndices.length === 0) {
    // No user message yet (a test driving tools directly): start at the call, never at its results.
    let start = earliest;
    while (start > 0 && transcript[start]?.role === 'tool') start--;
    return start;
  }
  // First user message at or after `earliest`.
  let lo = 0;
  let hi = userIndices.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (userIndices[mid] < earliest) lo = mid + 1;
    else hi = mid;
  }
  return lo < userIndices.length ? userIndices[lo] : userIndices[userIndices.length - 1];
}
