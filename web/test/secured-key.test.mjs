// The JavaScript derivation against the Go package's vectors (api/securedkey, whose test
// writes them): the same parent key and restrictions give the same key, byte for byte.
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { createPublicKey, verify } from "node:crypto";
import { generateSecuredKey, securedKeyPublicKey, SECURED_KEY_PREFIX } from "../secured-key.js";

const vectors = JSON.parse(readFileSync(new URL("../../api/securedkey/testdata/vectors.json", import.meta.url), "utf8"));
const parent = vectors[0].parentKey;

describe("generateSecuredKey", () => {
  for (const v of vectors) {
    test(`gives the Go package's key for ${v.name}`, () => {
      assert.equal(securedKeyPublicKey(v.parentKey), v.publicKey);
      const key = generateSecuredKey(v.parentKey, v.restrictions);
      assert.equal(key, v.key);
      const [payload] = key.slice(SECURED_KEY_PREFIX.length).split(".");
      assert.equal(Buffer.from(payload, "base64url").toString("utf8"), v.payload);
    });
  }

  test("signs with the parent's key pair, which the public key verifies", () => {
    const key = generateSecuredKey(parent, { filters: { field: "customerGroup", eq: "b2b-42" } });
    const [payload, signature] = key.slice(SECURED_KEY_PREFIX.length).split(".");
    const pub = createPublicKey({ key: { kty: "OKP", crv: "Ed25519", x: securedKeyPublicKey(parent) }, format: "jwk" });
    assert.ok(verify(null, Buffer.from(payload, "base64url"), pub, Buffer.from(signature, "base64url")));
    const other = createPublicKey({ key: { kty: "OKP", crv: "Ed25519", x: securedKeyPublicKey(parent + "x") }, format: "jwk" });
    assert.ok(!verify(null, Buffer.from(payload, "base64url"), other, Buffer.from(signature, "base64url")));
  });

  const refused = {
    "an empty index list": { indexes: [] },
    "an index name that is not one": { indexes: ["Products"] },
    "101 indexes": { indexes: Array.from({ length: 101 }, () => "a") },
    "maxHits over 100": { maxHits: 101 },
    "maxHits of 0": { maxHits: 0 },
    "a fractional maxHits": { maxHits: 2.5 },
    "validUntil in milliseconds past the safe range": { validUntil: 2 ** 53 },
    "validUntil as a Date": { validUntil: new Date() },
    "filters as an array": { filters: [{ field: "g", eq: "x" }] },
    "a misspelt restriction": { maxhits: 5 },
    "filters too long for a key": { filters: { field: "g", in: Array.from({ length: 700 }, () => "abcdefgh") } },
  };
  for (const [name, restrictions] of Object.entries(refused)) {
    test(`refuses ${name}`, () => {
      assert.throws(() => generateSecuredKey(parent, restrictions), RangeError);
    });
  }

  test("refuses a missing parent key", () => {
    assert.throws(() => generateSecuredKey(undefined, {}), TypeError);
  });
});
