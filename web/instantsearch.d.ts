// Type declarations of instantsearch.js (this package's), Aisle's InstantSearch adapter.

/** Where an InstantSearch index name searches, and what it adds to each of its queries. */
export interface AisleIndexTarget {
  /** The index's public ID (public endpoints). */
  publicId?: string;
  /** The index's name (keyed endpoints). */
  index?: string;
  /** Sort keys before relevance, as a search request's sort: a sortBy widget's "replica". */
  sort?: { field: string; order?: "asc" | "desc" }[];
  /** An Aisle filter ANDed with every query of this index. */
  filters?: Record<string, unknown>;
  /** Aisle search fields added to every query of this index, e.g. {variantsLimit: 3}. */
  params?: Record<string, unknown>;
}

export interface AisleSearchClientOptions {
  /** The API server's address, e.g. "https://search.example.com". */
  baseUrl: string;
  /**
   * A secured key (or a search key on a server): searches the keyed endpoints of
   * workspace. Without it, the public endpoints, whose public IDs must allow the page's origin.
   */
  apiKey?: string;
  /** The workspace of apiKey. */
  workspace?: string;
  /**
   * InstantSearch's index names: a public ID (an index name with apiKey), or a target.
   * A name not listed is itself the public ID (the index name with apiKey).
   */
  indexes?: Record<string, string | AisleIndexTarget>;
  /** Aisle search fields added to every query, e.g. {variantsLimit: 3, distinct: true}. */
  params?: Record<string, unknown>;
  /** The fetch to call (default: the global one). */
  fetch?: typeof fetch;
  /**
   * How long an answer is kept and reused for the same query or facet value search
   * (default 120 seconds; 0 keeps nothing). clearCache() (InstantSearch's refresh()) drops them.
   */
  cacheSeconds?: number;
}

/** A request as InstantSearch's helper sends it: Algolia's search parameters. */
export interface InstantSearchRequest {
  indexName: string;
  /** "facet": a search for facet values (clients without searchForFacetValues). */
  type?: "default" | "facet";
  facet?: string;
  params?: Record<string, any>;
}

/** A hit as Algolia gives it: the record's fields, objectID and what matched. */
export interface AisleInstantSearchHit {
  objectID: string;
  _highlightResult: Record<string, any>;
  _snippetResult?: Record<string, any>;
  /** A merchandising rule put the record at its position. */
  _rankingInfo?: { promoted: true };
  /** The other records of the hit's group (distinct with variantsLimit), best-ranked first. */
  _variants?: ({ objectID: string } & Record<string, unknown>)[];
  [field: string]: unknown;
}

export interface AisleInstantSearchResult {
  index: string;
  query: string;
  params: string;
  hits: AisleInstantSearchHit[];
  nbHits: number;
  page: number;
  nbPages: number;
  hitsPerPage: number;
  processingTimeMS: number;
  exhaustiveNbHits: true;
  exhaustiveFacetsCount: true;
  facets: Record<string, Record<string, number>>;
  facets_stats?: Record<string, { min: number; max: number; avg: number; sum: number }>;
  /** The userData of the merchandising rules applied, in order (a queryRuleCustomData banner). */
  userData?: unknown[];
  appliedRules?: { objectID: string }[];
  /** How the page shows facets (the index's facetOrdering, or a rule's): DynamicWidgets reads it. */
  renderingContent?: {
    facetOrdering?: {
      facets?: { order?: string[] };
      values?: Record<string, { order?: string[]; sortRemainingBy?: "count" | "alpha" | "hidden"; hide?: string[] }>;
    };
  };
}

export interface AisleFacetValuesResult {
  facetHits: { value: string; count: number; highlighted: string }[];
  exhaustiveFacetsCount: true;
  processingTimeMS: number;
}

export interface AisleSearchClient {
  /** InstantSearch's queries as Aisle multi-searches (10 a request public, 50 keyed). */
  search(requests: readonly InstantSearchRequest[]): Promise<{ results: (AisleInstantSearchResult | AisleFacetValuesResult)[] }>;
  /** A refinement list's search box: Aisle's facet value search. */
  searchForFacetValues(requests: readonly InstantSearchRequest[]): Promise<AisleFacetValuesResult[]>;
  clearCache(): Promise<void>;
}

/** The searchClient to give instantsearch({indexName, searchClient}). */
export function aisleSearchClient(options: AisleSearchClientOptions): AisleSearchClient;
