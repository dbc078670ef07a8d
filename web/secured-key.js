// Secured API keys for Node.js servers: generateSecuredKey derives, from one of the
// shop's search keys, a key with restrictions baked in, to hand to a browser. No call to
// Aisle and no dependency: Node's crypto. The format is the Go package api/securedkey's
// (docs/secured-keys.md); both are tested against its testdata/vectors.json. Not for
// browsers: the parent key must never reach one.
import { createHash, createPrivateKey, createPublicKey, sign } from "node:crypto";

export const SECURED_KEY_PREFIX = "aisle_sk_";
const MAX_LENGTH = 8192;
const MAX_HITS = 100;
const MAX_INDEXES = 100;
const SEED_CONTEXT = "aisle secured key v1\u0000";
// PKCS#8 DER of an Ed25519 private key, before its 32-byte seed (RFC 8410).
const PKCS8_ED25519 = Buffer.from("302e020100300506032b657004220420", "hex");
const INDEX_NAME = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/;

function privateKeyOf(parentKey) {
  if (typeof parentKey !== "string" || parentKey === "") throw new TypeError("parentKey must be the search key, a string");
  const seed = createHash("sha256").update(SEED_CONTEXT + parentKey, "utf8").digest();
  return createPrivateKey({ key: Buffer.concat([PKCS8_ED25519, seed]), format: "der", type: "pkcs8" });
}

// publicKeyOf is the base64url public key of priv (a JWK's x is exactly that).
function publicKeyOf(priv) {
  return createPublicKey(priv).export({ format: "jwk" }).x;
}

/** The base64url Ed25519 public key of parentKey: what the APIKey's status shows. */
export function securedKeyPublicKey(parentKey) {
  return publicKeyOf(privateKeyOf(parentKey));
}

function invalid(message) {
  return new RangeError("invalid secured key restrictions: " + message);
}

const RESTRICTIONS = ["filters", "indexes", "validUntil", "maxHits"];

// payloadOf builds the payload's members in the format's order, absent ones left out. A
// misspelt restriction is refused: dropped, it would leave the key wider than meant.
function payloadOf(publicKey, restrictions) {
  if (restrictions === null || typeof restrictions !== "object") throw invalid("restrictions must be an object");
  const unknown = Object.keys(restrictions).filter((k) => !RESTRICTIONS.includes(k));
  if (unknown.length > 0) throw invalid(`unknown ${unknown.join(", ")} (known: ${RESTRICTIONS.join(", ")})`);
  const { filters, indexes, validUntil, maxHits } = restrictions;
  const p = { v: 1, key: publicKey };
  if (indexes !== undefined) {
    if (!Array.isArray(indexes) || indexes.length === 0) throw invalid("indexes must be a non-empty array: leave it out for all the parent's");
    if (indexes.length > MAX_INDEXES) throw invalid(`at most ${MAX_INDEXES} indexes`);
    for (const name of indexes) {
      if (typeof name !== "string" || name.length > 63 || !INDEX_NAME.test(name)) throw invalid(`${JSON.stringify(name)} is not an index name`);
    }
    p.indexes = indexes;
  }
  if (filters !== undefined) {
    if (filters === null || typeof filters !== "object" || Array.isArray(filters)) throw invalid("filters must be an object, a filter of the search request");
    p.filters = filters;
  }
  if (validUntil !== undefined) {
    if (!Number.isSafeInteger(validUntil) || validUntil <= 0) throw invalid("validUntil must be Unix time in whole seconds");
    p.validUntil = validUntil;
  }
  if (maxHits !== undefined) {
    if (!Number.isInteger(maxHits) || maxHits < 1 || maxHits > MAX_HITS) throw invalid(`maxHits must be between 1 and ${MAX_HITS}`);
    p.maxHits = maxHits;
  }
  return Buffer.from(JSON.stringify(p), "utf8");
}

/**
 * Derives a secured key from parentKey (the value of a search key's Secret) with
 * restrictions: filters (added to every search), indexes (a subset of the parent's),
 * validUntil (Unix time in seconds) and maxHits (a cap on each search's limit).
 */
export function generateSecuredKey(parentKey, restrictions = {}) {
  const priv = privateKeyOf(parentKey);
  const payload = payloadOf(publicKeyOf(priv), restrictions);
  const signature = sign(null, payload, priv);
  const key = SECURED_KEY_PREFIX + payload.toString("base64url") + "." + signature.toString("base64url");
  if (key.length > MAX_LENGTH) throw invalid(`the key would be ${key.length} bytes, over ${MAX_LENGTH}: shorten the filters`);
  return key;
}
