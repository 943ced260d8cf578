/**
 * Whether a catalog is listed or searched, from the `<Agent catalog catalogListLimit>` props and the
 * number of skills: decided once, when a tree snapshot is built (`snap.searched`), so asking per
 * request costs nothing.
 */

/** How many skills `catalog="auto"` lists before it searches. */
export const DEFAULT_CATALOG_LIST_LIMIT = 30;

/** The list limit in effect: `<Agent catalogListLimit>` when it is a whole number from 0 up, else 30. */
export function catalogListLimit(props: Record<string, any>): number {
  const limit = props.catalogListLimit;
  return typeof limit === 'number' && Number.isFinite(limit) && limit >= 0
    ? Math.floor(limit)
    : DEFAULT_CATALOG_LIST_LIMIT;
}

/** Whether a catalog of `count` skills is searched: `catalog="search"`, or `"auto"` over the list limit. */
export function catalogSearched(props: Record<string, any>, count: number): boolean {
  if (count === 0) return false;
  const mode = props.catalog;
  if (mode === 'list') return false;
  if (mode === 'search') return true;
  return count > catalogListLimit(props);
}
