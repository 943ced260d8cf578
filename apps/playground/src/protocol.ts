/**
 * The wire protocol of `skilltree dev`: the CLI owns it and exports it as
 * `@skilltree/cli/dev-protocol`; the session travels as core's `SessionView`, as is. The page
 * re-exports every type of it whole, so a type the CLI adds reaches the panels without a list here.
 */
export type * from '@skilltree/cli/dev-protocol';
