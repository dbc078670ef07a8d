// Type declarations of aisle.js, Aisle's browser client.

/** Options of the client. */
export interface AisleOptions {
  /** The API server's address, e.g. "https://search.example.com". */
  baseUrl: string;
  /** The index's public ID; the page's origin must be one of its allowed origins. */
  publicId: string;
  /**
   * Shopper events: "on" sends them (default), "off" sends and keeps nothing, "hold"
   * keeps them (across pages of the site) until consent(true) sends them or
   * consent(false) drops them.
   */
  events?: "on" | "off" | "hold";
  /**
   * Where unsent events wait for the next page (one hour at most): a per-tab storage,
   * default sessionStorage, or null for none. Not localStorage: tabs would share events.
   */
  storage?: Storage | null;
}

/** A facet value, as records hold it. */
export type FacetValue = string | number | boolean;

/** A search request; see the HTTP interface for the full list of fields. */
export interface SearchRequest {
  q?: string;
  limit?: number;
  offset?: number;
  facets?: string[];
  /** Selected values per facet: OR within a facet, AND across; each facet's counts ignore its own selection. */
  facetFilters?: Record<string, FacetValue[]>;
  /** Hits per group of the index's distinct field: true (the setting's), false, or 1 to 10. */
  distinct?: boolean | number;
  /** Other records of its group each hit carries as variants (0 to 20, default 0). */
  variantsLimit?: number;
  [field: string]: unknown;
}

export interface SearchHit {
  objectID: string;
  record: Record<string, unknown>;
  /** HTML-escaped, with <em> around the matches. */
  highlights?: Record<string, string | string[]>;
  /** The other records of the hit's group, best-ranked first (with variantsLimit). */
  variants?: { objectID: string; record: Record<string, unknown> }[];
  /** A merchandising rule put the record at this position. */
  promoted?: true;
  [field: string]: unknown;
}

/** The bounds of a numeric facet's values over the records its counts are taken from. */
export interface FacetStats {
  min: number;
  max: number;
  avg: number;
  sum: number;
}

export interface SearchResponse {
  hits: SearchHit[];
  /** Matching records; with distinct, groups. */
  total: number;
  offset: number;
  limit: number;
  facets: Record<string, { value: FacetValue; count: number }[]>;
  /** Per requested facet holding numbers; absent when there is none. */
  facetStats?: Record<string, FacetStats>;
  /** The merchandising rules applied, in order (absent when none). */
  appliedRules?: string[];
  /** The userData of the rules applied, in their order: what a page shows (a banner). */
  userData?: unknown[];
  [field: string]: unknown;
}

/** A query of a multi-search: a search request, of the client's index unless publicId names another. */
export interface MultiSearchQuery extends SearchRequest {
  publicId?: string;
}

/** Where one query of a multi-search failed, with the status a search alone would have had. */
export interface QueryError {
  error: string;
  status: number;
}

export interface MultiSearchResponse {
  /** One per query, in order. */
  results: (SearchResponse | QueryError)[];
}

/** A facet value search: values of the field matching facetQuery, counted within the search of q and the filters. */
export interface FacetSearchRequest {
  facetQuery?: string;
  q?: string;
  filters?: Record<string, unknown>;
  facetFilters?: Record<string, FacetValue[]>;
  /** 1 to 100, default 10. */
  maxValues?: number;
}

export interface FacetSearchResponse {
  /** Most frequent first; highlighted is the value HTML-escaped with what matched in <em>. */
  values: { value: FacetValue; count: number; highlighted: string }[];
}

export interface TogetherHit {
  objectID: string;
  record: Record<string, unknown> | null;
  /** How many counted orders hold both products. */
  sharedOrders: number;
  /** sharedOrders divided by the orders holding the given product. */
  confidence: number;
}

export interface TogetherList {
  objectID: string;
  /** Counted orders within 400 days that hold objectID. */
  orders: number;
  hits: TogetherHit[];
}

/** Options of a recommendation list. */
export interface ListOptions {
  /** 1 to 50, default 10 (capped by the index's public policy). */
  limit?: number;
  /** A filter as in a search request, e.g. {field: "inStock", eq: true}. */
  filters?: Record<string, unknown>;
}

/** Options of the trending list: field and value pick one facet value (a category). */
export interface TrendingOptions extends ListOptions {
  field?: string;
  value?: string;
}

/** Options of query suggestions. */
export interface SuggestOptions {
  /** 1 to 20, default 5. */
  limit?: number;
  /** true adds the top values (at most 3) of the index's category facet among each suggestion's hits. */
  categories?: boolean;
}

/** A popular past search: its searches that found something and the most hits one found. */
export interface Suggestion {
  query: string;
  searches: number;
  hits: number;
  /** With categories: true, e.g. [{value: "Shoes", count: 12}] to say "in Shoes". */
  categories?: { value: string | number | boolean; count: number }[];
}

export interface RecommendationHit {
  objectID: string;
  record: Record<string, unknown>;
  /** Ranks the hits of one reason (relevance, lift, order count, rise of events). */
  score: number;
  /** Why it is listed: content (similar), orders or categories (goes with), trending. */
  reason: "content" | "orders" | "categories" | "trending";
}

export interface RecommendationList {
  /** The product the list is for; absent for trending. */
  objectID?: string;
  hits: RecommendationHit[];
}

/** A product of a cart or an order. */
export interface Item {
  objectID: string;
  /** Positive integer, default 1. */
  quantity?: number;
  /** Unit price, non-negative; needs a currency. */
  price?: number;
}

/** A click on a search result. */
export interface SearchClick {
  objectID: string;
  /** 1-based position of the product in the results. */
  position: number;
  query: string;
}

/** A click on a product of a recommendation list. */
export interface ListClick {
  objectID: string;
  position: number;
  list: "goesWith" | "similar" | "together";
  /** The product whose list it was. */
  from: string;
}

/** A click on a trending product: the list is no product's, so there is no from. */
export interface TrendingClick {
  objectID: string;
  position: number;
  list: "trending";
}

/** An answer the client could not use: its status (0 when none could be read) and Retry-After. */
export interface AisleError extends Error {
  status: number;
  retryAfter: string | null;
}

export class Aisle {
  constructor(options: AisleOptions);
  /** Searches the index; throws an AisleError on failure. */
  search(request?: SearchRequest): Promise<SearchResponse>;
  /** Searches the values of a facet field, for a refinement list's search box. */
  searchFacetValues(field: string, request?: FacetSearchRequest): Promise<FacetSearchResponse>;
  /** Up to 10 searches in one request; a failed query does not fail the others. */
  multiSearch(queries: MultiSearchQuery[]): Promise<MultiSearchResponse>;
  /** Products bought in the same orders as objectID, most shared orders first. */
  boughtTogether(objectID: string, options?: { limit?: number }): Promise<TogetherList>;
  /** Products like objectID: shared words and facet values, within its similarWithin value. */
  similar(objectID: string, options?: ListOptions): Promise<RecommendationList>;
  /** Products bought with objectID outside its category, by lift; categories bought with its own when its orders are too few. */
  goesWith(objectID: string, options?: ListOptions): Promise<RecommendationList>;
  /** Products whose weighted events rose most in the last 7 days against the 28 before. */
  trending(options?: TrendingOptions): Promise<RecommendationList>;
  /**
   * Popular past searches starting with q (with the index's typo rules), most searched
   * first; only those searched on the index's suggestions.minDays distinct days.
   */
  suggest(q: string, options?: SuggestOptions): Promise<{ suggestions: Suggestion[] }>;
  view(objectID: string): void;
  click(click: SearchClick | ListClick | TrendingClick): void;
  /** currency: ISO 4217 code, needed when an item has a price. */
  addToCart(items: Item[], currency?: string): void;
  /** orderID is never stored by the service; an order is counted once however often it is sent. */
  purchase(orderID: string, items: Item[], currency?: string): void;
  /** Releases (true) or drops (false) the held events; false also drops every later one. */
  consent(granted: boolean): void;
  /** Events held, queued or in flight. */
  readonly pending: number;
}

/** The search-only client's name, kept for pages that import it. */
export { Aisle as AisleSearch };

/** How many events from the head of the queue fit in one request (internal). */
export function take(queue: { b: number }[], limit?: number): number;
/** The wait before retry number attempt, in ms (internal). */
export function backoff(attempt: number, random?: () => number): number;
/** The wait before a resend after an answer, in ms, or -1 when done (internal). */
export function retryWait(status: number, retryAfter: string | null, attempt: number, now?: number): number;
