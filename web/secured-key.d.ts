// Type declarations of secured-key.js: deriving secured API keys on a Node.js server.

/** A filter of the search request: a condition on a field, or and/or/not of filters. */
export type Filter =
  | { field: string; eq: string | number | boolean }
  | { field: string; in: Array<string | number | boolean> }
  | { field: string; range: { gt?: number | string; gte?: number | string; lt?: number | string; lte?: number | string } }
  | { field: string; exists: boolean }
  | { and: Filter[] }
  | { or: Filter[] }
  | { not: Filter };

/** What a secured key may do, on top of its parent's scope and indexes. */
export interface SecuredKeyRestrictions {
  /** Added with AND to every search the key makes; a request's own filters only narrow further. */
  filters?: Filter;
  /** A non-empty subset of the parent's indexes; other indexes answer 403. */
  indexes?: string[];
  /** Unix time in seconds after which the key answers 401. */
  validUntil?: number;
  /** Caps each search's limit (1 to 100): a request asking more gets this many. */
  maxHits?: number;
}

/** "aisle_sk_", the start of every secured key. */
export const SECURED_KEY_PREFIX: "aisle_sk_";

/**
 * Derives a secured key from parentKey, the value of a search key's Secret, without
 * calling Aisle. Throws a RangeError for restrictions that cannot make a key.
 */
export function generateSecuredKey(parentKey: string, restrictions?: SecuredKeyRestrictions): string;

/** The base64url Ed25519 public key of parentKey, as the APIKey's status shows it. */
export function securedKeyPublicKey(parentKey: string): string;
