/**
 * How a row of a model table is priced. The dollar figures stay in core's `PRICES` (apps price a
 * name with `estimateCost`, `priceFor` and the CLI's cost line without loading an adapter); each row
 * names its entry there, so that one row holds all a model's facts and a test can hold the two
 * tables together (every row priced, every price a row's).
 */

/**
 * The price side of a model row: `price`, the key of the model's entry in core's `PRICES` (a dated
 * id is priced as its row). Every row has one; the entry says the day its rates are of (`asOf`) and
 * where they come from (`source`: a provider's price page, or a family estimate for a model whose
 * list price was not recorded).
 */
export interface ModelPricing {
  readonly price: string;
  /**
   * Why a row had no price, when rows could be unpriced.
   *
   * @deprecated Every row is priced now (a model without a recorded list price has a family
   * estimate, its entry's `source` says so); always undefined.
   */
  readonly unpriced?: undefined;
}
