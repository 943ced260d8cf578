/**
 * Watching a turn's abort signal from the short-lived places that need it (each model call, each
 * tool call). Adding and removing a listener on an `AbortSignal` costs more than the rest of a
 * tool call's bookkeeping, so each signal gets one listener, made the first time it is watched,
 * that calls the watchers registered when it fires.
 */

/** The watchers of each signal that has not aborted yet. */
const watchers = new WeakMap<AbortSignal, Set<{ onAbort: () => void }>>();

/**
 * Calls `onAbort` once, when `signal` aborts, unless the returned function is called first. Like an
 * `abort` listener, it is never called for a signal that aborted already: callers check `aborted`
 * first.
 */
export function whenAborted(signal: AbortSignal, onAbort: () => void): () => void {
  let set = watchers.get(signal);
  if (!set) {
    const created = new Set<{ onAbort: () => void }>();
    set = created;
    watchers.set(signal, created);
    signal.addEventListener(
      'abort',
      () => {
        watchers.delete(signal);
        for (const watcher of [...created]) {
          try {
            watcher.onAbort();
          } catch (error) {
            // As a listener's error would be: reported, and the other watchers still run.
            queueMicrotask(() => {
              throw error;
            });
          }
        }
      },
      { once: true },
    );
  }
  const watcher = { onAbort };
  set.add(watcher);
  const watching = set;
  return () => {
    watching.delete(watcher);
  };
}
