/**
 * How a row of a model table is priced. The dollar figures stay in core's `PRICES` (apps price a
 * name with `estimateCost`, `priceFor` and the CLI's cost line without loading an adapter); each row
 * names its entry there, or says why it has none, so that one row holds all a model's facts and a
 * test can hold the two tables together (every row priced or saying why not, every price a row's).
 */

/**
 * The price side of a model row: `price`, the key of the model's entry in core's `PRICES` (a dated
 * id is priced as its row), or `unpriced`, the reason there is no list price to give (then
 * `estimateCost` needs a `Price` passed, and the CLI's cost line shows tokens only). Exactly one of
 * the two.
 */
export type ModelPricing =
  | { readonly price: string; readonly unpriced?: never }
  | { readonly unpriced: string; readonly price?: never };

/**
 * Why the rows with `unpriced` have no price: core's table holds only list prices that were read
 * from the providers' pages (on 2025-11-01, and 2026-12-01 for the Claude 5.x and GPT-5.4+ models),
 * and none was recorded for these. A price is never guessed: a wrong one is worse than none.
 */
export const NO_LIST_PRICE =
  "no list price was recorded in core's PRICES (list prices of 2025-11-01 and 2026-12-01); pass a Price to estimateCost or --price";
