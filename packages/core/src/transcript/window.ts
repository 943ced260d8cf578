/**
 * The transcript window: the newest part of the transcript that a request carries. It always starts
 * at a user message (so no tool result loses its call), holds at most `maxTranscriptMessages`
 * messages and, when set, at most `maxTranscriptTokens` tokens — unless the newest user message is
 * older than that, and then it starts there anyway. Its cost grows with the window, never with the
 * transcript.
 */
import { estimateFileTokens } from '../files/files.js';
import { textOf } from '../parts/message-parts.js';
import type { Message } from '../types/messages.js';

/** Counts the tokens of a piece of text. */
export type Tokenizer = (text: string) => number;

/**
 * The default token estimate: one token per 4 UTF-16 units, rounded up, plus one per message. Fast
 * and good for budgets: on English prose it is within about 15% of OpenAI's o200k tokenizer;
 * dense code and non-Latin text count more tokens per character, so pass an exact `tokenizer`
 * when the budget is tight.
 */
export const estimateTokens: Tokenizer = (text) => Math.ceil(text.length / 4);

/**
 * Index of the first message of the window, given the ascending indices of the transcript's user
 * messages. Runs in O(log n): a request never scans the whole transcript.
 */
export function windowStart(transcript: readonly Message[], userIndices: readonly number[], max: number): number {
  return startAtUser(transcript, userIndices, Math.max(0, transcript.length - Math.max(1, max)));
}

/** The first user message at or after `earliest`; else the last user message; else (no user message) `earliest`, moved back past tool results. */
function startAtUser(transcript: readonly Message[], userIndices: readonly number[], earliest: number): number {
  if (userIndices.length === 0) {
    // No user message yet (a test driving tools directly): start at the call, never at its results.
    let start = earliest;
    while (start > 0 && transcript[start]?.role === 'tool') start--;
    return start;
  }
  let lo = 0;
  let hi = userIndices.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (userIndices[mid] < earliest) lo = mid + 1;
    else hi = mid;
  }
  return lo < userIndices.length ? userIndices[lo] : userIndices[userIndices.length - 1];
}

/**
 * `count` made once per object and tokenizer: each tokenizer has its own cache, and an entry goes
 * with its object (both are held weakly).
 */
export function tokenCounter<K extends object>(
  count: (key: K, tokenizer: Tokenizer) => number,
): (key: K, tokenizer: Tokenizer) => number {
  const counts = new WeakMap<Tokenizer, WeakMap<K, number>>();
  return (key, tokenizer) => {
    let cache = counts.get(tokenizer);
    if (!cache) {
      cache = new WeakMap();
      counts.set(tokenizer, cache);
    }
    let n = cache.get(key);
    if (n === undefined) {
      n = count(key, tokenizer);
      cache.set(key, n);
    }
    return n;
  };
}

/** Tokens of one message as a provider carries it: its text, its tool calls, a little framing. Cached per message. */
export const messageTokens = tokenCounter<Message>((message, tokenizer) => {
  let n = 4 + tokenizer(textOf(message));
  for (const part of message.content) if (part.type === 'file') n += estimateFileTokens(part);
  if (message.role === 'assistant') {
    for (const call of message.toolCalls ?? [])
      n += 4 + tokenizer(call.name) + tokenizer(JSON.stringify(call.input ?? {}));
  }
  return n;
});

/** Settings of {@link chooseWindow}. */
export interface WindowRules {
  maxMessages: number;
  /** Token budget; none when undefined. */
  maxTokens?: number;
  tokenizer?: Tokenizer;
  /**
   * `'sliding'` (default): the newest messages that fit, so the start moves with every turn once the
   * transcript is longer than the cap. `'stable'`: the start stays where it was while the window
   * still fits, and then jumps ahead to leave half the budget free, so a provider's prompt cache
   * keeps the message prefix for many turns.
   */
  mode?: 'sliding' | 'stable';
  /** Where the window started last time (stable mode). */
  previousStart?: number;
}

/** The earliest index from which the messages to the end fit `budget` tokens. O(window). */
function tokenEarliest(transcript: readonly Message[], budget: number, tokenizer: Tokenizer): number {
  let total = 0;
  for (let i = transcript.length - 1; i >= 0; i--) {
    total += messageTokens(transcript[i], tokenizer);
    if (total > budget) return i + 1;
  }
  return 0;
}

/** Whether the window from `start` fits the rules. */
function fits(transcript: readonly Message[], start: number, rules: WindowRules, tokenizer: Tokenizer): boolean {
  if (transcript.length - start > rules.maxMessages) return false;
  if (rules.maxTokens === undefined) return true;
  let total = 0;
  for (let i = transcript.length - 1; i >= start; i--) {
    total += messageTokens(transcript[i], tokenizer);
    if (total > rules.maxTokens) return false;
  }
  return true;
}

/** Where the window starts, by the rules. */
export function chooseWindow(
  transcript: readonly Message[],
  userIndices: readonly number[],
  rules: WindowRules,
): number {
  const tokenizer = rules.tokenizer ?? estimateTokens;
  const earliestFor = (messages: number, tokens: number | undefined) => {
    let earliest = Math.max(0, transcript.length - Math.max(1, messages));
    if (tokens !== undefined) earliest = Math.max(earliest, tokenEarliest(transcript, tokens, tokenizer));
    return earliest;
  };
  if (rules.mode === 'stable') {
    const previous = rules.previousStart;
    if (
      previous !== undefined &&
      previous >= 0 &&
      previous < transcript.length &&
      transcript[previous].role === 'user' &&
      fits(transcript, previous, rules, tokenizer)
    ) {
      return previous;
    }
    // Jump: leave half of each budget free, so the start can stay put for a while.
    const half = earliestFor(
      Math.ceil(rules.maxMessages / 2),
      rules.maxTokens === undefined ? undefined : rules.maxTokens / 2,
    );
    return startAtUser(transcript, userIndices, half);
  }
  return startAtUser(transcript, userIndices, earliestFor(rules.maxMessages, rules.maxTokens));
}
