/**
 * The session cache's bounds from `createSessions`' options: `cache: { maxChats, maxBytes }`, and
 * the older `cacheSize`. A chat's bytes are its session's estimate (`estimateSessionBytes`).
 */
import type { MountedCacheLimits, SessionCacheOptions } from './cache.js';
import type { ChatSession } from './chat-session.js';

/** A bound that is a number of at least 0 (else the error names the option and the fix). */
function bound(name: string, value: number | undefined, fallback: number): number {
  if (value === undefined) return fallback;
  if (typeof value !== 'number' || Number.isNaN(value) || value < 0) {
    throw new TypeError(`createSessions: ${name} must be a number of at least 0 (got ${String(value)}).`);
  }
  return value;
}

/** @internal The session cache's bounds from `createSessions`' options: `cache`, and the older `cacheSize`. */
export function chatCacheLimits(options: {
  cacheSize?: number;
  cache?: SessionCacheOptions;
}): MountedCacheLimits<ChatSession> {
  return {
    maxChats: bound('cache.maxChats', options.cache?.maxChats, bound('cacheSize', options.cacheSize, 100)),
    maxBytes: bound('cache.maxBytes', options.cache?.maxBytes, Infinity),
    sizeOf: (chat) => chat.bytes(),
  };
}
