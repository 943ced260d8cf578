/**
 * The sandbox: every path a tool receives is resolved here, and anything that would leave the
 * sandbox root is refused, whether it gets there with `..`, an absolute path, or a symlink.
 *
 * Paths are checked twice: lexically (after `path.resolve`), then physically with `fs.realpath`,
 * so a symlink inside the sandbox that points outside it is refused too. For a path that does
 * not exist yet (a file about to be written), the nearest existing ancestor is resolved instead.
 *
 * This keeps a well-meaning model inside a folder. It is not an isolation boundary against a
 * hostile process racing the agent on the same disk; run agents you do not trust in a container.
 */
import { realpathSync } from 'node:fs';
import { lstat, realpath } from 'node:fs/promises';
import path from 'node:path';

/** A refusal the model should read: the path leaves the sandbox. */
export class OutsideSandboxError extends Error {
  override name = 'OutsideSandboxError';
}

export class Sandbox {
  /** The root, as given. */
  readonly given: string;
  /** The root with every symlink resolved. */
  readonly root: string;

  constructor(root: string) {
    this.given = path.resolve(root);
    try {
      this.root = realpathSync(this.given);
    } catch {
      throw new Error(`The sandbox root ${this.given} does not exist. Create it, or pass another directory.`);
    }
  }

  /** True when `target` (absolute, real) is the root or inside it. */
  contains(target: string): boolean {
    const rel = path.relative(this.root, target);
    return rel === '' || (!rel.startsWith(`..${path.sep}`) && rel !== '..' && !path.isAbsolute(rel));
  }

  /** `target` (absolute, inside) as the model sees it: relative to the root, `/`-separated, `.` for the root. */
  display(target: string): string {
    const rel = path.relative(this.root, target);
    return rel === '' ? '.' : rel.split(path.sep).join('/');
  }

  /**
   * The real absolute path of `input` (relative to the root; an absolute path must point inside
   * it). Throws {@link OutsideSandboxError} for anything outside, `ENOENT` errors as they come
   * for a missing path when `mustExist`.
   */
  async resolve(input: string, { mustExist = true }: { mustExist?: boolean } = {}): Promise<string> {
    if (typeof input !== 'string' || input.trim() === '') throw new Error('A path is required, e.g. "notes/todo.md".');
    if (input.includes('\0')) throw new OutsideSandboxError(`Refused: the path contains a NUL byte.`);
    // An absolute path under the root as given (say /tmp/x when /tmp is a symlink) means the same
    // place under the real root.
    const given = path.relative(this.given, path.resolve(this.given, input));
    const lexical =
      path.isAbsolute(input) && !given.startsWith('..') && !path.isAbsolute(given)
        ? path.join(this.root, given)
        : path.resolve(this.root, input);
    if (!this.contains(lexical)) {
      throw new OutsideSandboxError(
        `Refused: "${input}" is outside the sandbox. Paths are relative to the sandbox root, and cannot leave it.`,
      );
    }
    // Resolve the longest existing prefix with realpath; keep the missing tail as it is.
    let candidate = lexical;
    const tail: string[] = [];
    let real: string;
    for (;;) {
      try {
        real = path.join(await realpath(candidate), ...tail);
        break;
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
        // The entry exists but cannot be resolved: a symlink whose target is missing. Writing
        // through it would create its target, wherever that is.
        if (
          await lstat(candidate).then(
            () => true,
            () => false,
          )
        ) {
          throw new OutsideSandboxError(
            `Refused: "${input}" goes through a symlink whose target does not exist. Only files inside the sandbox can be used.`,
          );
        }
        const parent = path.dirname(candidate);
        if (parent === candidate) throw error;
        tail.unshift(path.basename(candidate));
        candidate = parent;
      }
    }
    if (!this.contains(real)) throw this.#viaSymlink(input);
    if (tail.length > 0 && mustExist) throw new Error(`No such file or directory: "${input}".`);
    return real;
  }

  #viaSymlink(input: string): OutsideSandboxError {
    return new OutsideSandboxError(
      `Refused: "${input}" goes through a symlink that points outside the sandbox. Only files inside the sandbox can be used.`,
    );
  }
}
