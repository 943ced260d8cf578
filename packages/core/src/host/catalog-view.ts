/**
 * A snapshot's catalog without a copy of the catalog per snapshot. A whole read of the tree makes
 * the base: every skill's entry in tree order, and each name's index. A later snapshot whose commit
 * only changed what some skills render holds the same base and the entries that replaced those
 * skills' (by index); each snapshot's view stays what it was when it was taken, and making one costs
 * the replaced entries, not the catalog. `skillsByName` is a read-only `Map` over the view; the
 * `skills` array is made on first read, once per snapshot.
 */
import type { SkillEntry } from './tree-entries.js';

/** A replaced entry per index, over a base. Past this many, the next update starts from a new base. */
export const MAX_SWAPPED = 64;

/** One snapshot's catalog: the base and the entries swapped in since it was made. */
export class CatalogView {
  constructor(
    /** Every skill's entry as of the base, in tree order. Never changed once made. */
    readonly base: readonly SkillEntry[],
    /** Each name's index in the catalog (the first skill of the name). Shared by every view of the same shape. */
    readonly slots: ReadonlyMap<string, number>,
    /** The entries that replaced the base's since, by index. */
    readonly swapped: ReadonlyMap<number, SkillEntry>,
  ) {}

  /** The entry at `index`. */
  at(index: number): SkillEntry | undefined {
    return this.swapped.get(index) ?? this.base[index];
  }

  /** The view after `swaps` (index, entry): a new base when too many entries were swapped. */
  with(swaps: readonly (readonly [number, SkillEntry])[]): CatalogView {
    if (swaps.length === 0) return this;
    const swapped = new Map(this.swapped);
    for (const [index, entry] of swaps) swapped.set(index, entry);
    if (swapped.size <= MAX_SWAPPED) return new CatalogView(this.base, this.slots, swapped);
    return new CatalogView(applied(this.base, swapped), this.slots, new Map());
  }

  #list: SkillEntry[] | undefined;

  /** Every entry in tree order: made once per view (the base itself when nothing was swapped). */
  list(): SkillEntry[] {
    this.#list ??= this.swapped.size === 0 ? (this.base as SkillEntry[]) : applied(this.base, this.swapped);
    return this.#list;
  }
}

function applied(base: readonly SkillEntry[], swapped: ReadonlyMap<number, SkillEntry>): SkillEntry[] {
  const out = base.slice();
  for (const [index, entry] of swapped) out[index] = entry;
  return out;
}

/**
 * A snapshot's `skillsByName`: a read-only `Map` over a {@link CatalogView}. Reading a name costs
 * two lookups; nothing is copied per snapshot. Writing to it is an error (a snapshot is read-only).
 */
export class SkillsByName extends Map<string, SkillEntry> {
  readonly #view: CatalogView;

  constructor(view: CatalogView) {
    super();
    this.#view = view;
  }

  /** Each name's index: the same object in every snapshot of one catalog shape (see {@link sameShape}). */
  get slots(): ReadonlyMap<string, number> {
    return this.#view.slots;
  }

  override get(name: string): SkillEntry | undefined {
    const index = this.#view.slots.get(name);
    return index === undefined ? undefined : this.#view.at(index);
  }

  override has(name: string): boolean {
    return this.#view.slots.has(name);
  }

  override get size(): number {
    return this.#view.slots.size;
  }

  override *entries(): MapIterator<[string, SkillEntry]> {
    for (const [name, index] of this.#view.slots) yield [name, this.#view.at(index) as SkillEntry];
  }

  override *keys(): MapIterator<string> {
    yield* this.#view.slots.keys();
  }

  override *values(): MapIterator<SkillEntry> {
    for (const index of this.#view.slots.values()) yield this.#view.at(index) as SkillEntry;
  }

  override [Symbol.iterator](): MapIterator<[string, SkillEntry]> {
    return this.entries();
  }

  override forEach(
    callback: (value: SkillEntry, key: string, map: Map<string, SkillEntry>) => void,
    self?: unknown,
  ): void {
    for (const [name, entry] of this.entries()) callback.call(self, entry, name, this);
  }

  override set(name: string): this {
    throw new Error(`A tree snapshot's skills are read-only (tried to set "${name}").`);
  }

  override delete(name: string): boolean {
    throw new Error(`A tree snapshot's skills are read-only (tried to delete "${name}").`);
  }

  override clear(): void {
    throw new Error("A tree snapshot's skills are read-only (tried to clear them).");
  }
}

/**
 * Whether two snapshots' catalogs have one shape: the same skills in the same order, with the same
 * names, descriptions and pins (entries swapped in since keep all of these). Checked in O(1); false
 * says nothing (compare the entries).
 */
export function sameShape(a: ReadonlyMap<string, SkillEntry>, b: ReadonlyMap<string, SkillEntry>): boolean {
  return a instanceof SkillsByName && b instanceof SkillsByName && a.slots === b.slots;
}
