/** The filters and sort of `decidekit view`'s list, as its query string gives them. */

/** The list's filters as the query string gives them; absent = no filter. */
export interface IndexFilters {
  readonly model?: string;
  readonly label?: string;
  readonly dataset?: string;
  readonly status?: string;
  /** `YYYY-MM-DD`, inclusive. */
  readonly from?: string;
  readonly to?: string;
  readonly sort?: IndexSort;
}

/** What the list is sorted by: newest first, or a headline metric best first (absent last). */
export const INDEX_SORTS = ['created', 'accuracy', 'kl', 'brier', 'ece'] as const;
export type IndexSort = (typeof INDEX_SORTS)[number];
