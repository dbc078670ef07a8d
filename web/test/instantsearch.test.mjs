// The InstantSearch adapter as InstantSearch drives it: the real algoliasearch-helper
// (what instantsearch.js builds its requests and reads its results with) over a fake
// Aisle that records the requests and answers as the HTTP interface says. The page of
// web/examples runs the same in Chromium against the whole system (test/browser).
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import algoliasearchHelper from "algoliasearch-helper";
import { aisleSearchClient } from "../instantsearch.js";

// fakeAisle answers each query of a multi-search with answer(query), and a facet value
// search with facets(body); sent keeps every request.
function fakeAisle({ answer = () => searchAnswer(), facets = () => ({ values: [] }) } = {}) {
  const sent = [];
  const fetch = async (url, init) => {
    const body = JSON.parse(init.body);
    sent.push({ url, headers: init.headers, body });
    const json = url.endsWith("/multi-search") ? { results: body.queries.map(answer) } : facets(body);
    const status = json.status >= 400 && !json.results ? json.status : 200;
    return { ok: status < 300, status, json: async () => json };
  };
  return { sent, fetch };
}

function searchAnswer(more = {}) {
  return { hits: [], total: 0, offset: 0, limit: 20, facets: {}, ignoredWords: [], took: 3, ...more };
}

const brandFacet = { brand: [{ value: "acme", count: 7 }, { value: "globex", count: 3 }, { value: "initech", count: 1 }] };

const priceFacet = { price: [{ value: 5, count: 1 }, { value: 90, count: 1 }] };

function helperOn(client, params) {
  return algoliasearchHelper(client, "products", params);
}

const searched = (helper) =>
  new Promise((resolve, reject) => {
    helper.once("result", ({ results }) => resolve(results));
    helper.once("error", ({ error }) => reject(error));
    helper.search();
  });

describe("aisleSearchClient under InstantSearch's helper", () => {
  test("sends a disjunctive refinement as facetFilters and a range as filters, in one multi-search", async () => {
    const aisle = fakeAisle({
      answer: (q) => searchAnswer({ facets: { ...(q.facets.includes("brand") && brandFacet), ...(q.facets.includes("price") && priceFacet) },
        facetStats: q.facets.includes("price") ? { price: { min: 5, max: 90, avg: 40, sum: 400 } } : undefined }),
    });
    const client = aisleSearchClient({ baseUrl: "http://aisle.test/", indexes: { products: "pub-1" }, fetch: aisle.fetch });
    const helper = helperOn(client, { disjunctiveFacets: ["brand", "price"], hitsPerPage: 12 })
      .addDisjunctiveFacetRefinement("brand", "acme").addDisjunctiveFacetRefinement("brand", "globex")
      .addNumericRefinement("price", ">=", 10).addNumericRefinement("price", "<=", 50)
      .setQuery("shoe").setPage(2);
    const results = await searched(helper);

    assert.equal(aisle.sent.length, 1);
    assert.equal(aisle.sent[0].url, "http://aisle.test/api/public/multi-search");
    const [main, brandQuery, priceQuery] = aisle.sent[0].body.queries;
    assert.deepEqual(main, { publicId: "pub-1", q: "shoe", offset: 24, limit: 12, facets: ["brand", "price"],
      facetFilters: { brand: ["acme", "globex"] },
      filters: { and: [{ field: "price", range: { gte: 10 } }, { field: "price", range: { lte: 50 } }] } });
    assert.equal(brandQuery.facetFilters, undefined, "the brand counts are taken without the brand selection");
    assert.equal(brandQuery.limit, 1);
    assert.equal(brandQuery.highlight, false);
    assert.deepEqual(priceQuery.facetFilters, { brand: ["acme", "globex"] });
    assert.equal(priceQuery.filters, undefined, "the slider's bounds are taken without its own range");

    assert.deepEqual(results.getFacetValues("brand", { sortBy: ["name:asc"] }).map((v) => [v.name, v.count, v.isRefined]),
      [["acme", 7, true], ["globex", 3, true], ["initech", 1, false]]);
    assert.deepEqual(results.getFacetStats("price"), { min: 5, max: 90, avg: 40, sum: 400 });
  });

  test("gives hits Algolia's shape: fields, _highlightResult in the request's tags, promotion, variants, banner data", async () => {
    const hit = {
      objectID: "sku-1",
      record: { name: "Red <b> shoe", tags: ["trail", "running shoe"], brand: { name: "Acme" }, price: 30 },
      highlights: { name: "Red &lt;b&gt; <em>shoe</em>", tags: ["running <em>shoe</em>"] },
      promoted: true,
      variants: [{ objectID: "sku-2", record: { name: "Blue shoe" } }],
    };
    const aisle = fakeAisle({ answer: () => searchAnswer({ hits: [hit], total: 45, limit: 10, appliedRules: ["pin"], userData: [{ banner: "Sale" }] }) });
    const client = aisleSearchClient({ baseUrl: "http://aisle.test", fetch: aisle.fetch });
    const results = await searched(helperOn(client, { hitsPerPage: 10, highlightPreTag: "__ais-highlight__", highlightPostTag: "__/ais-highlight__" }));

    const [h] = results.hits;
    assert.equal(h.objectID, "sku-1");
    assert.equal(h.price, 30);
    assert.deepEqual(h._highlightResult.name, { value: "Red <b> __ais-highlight__shoe__/ais-highlight__", matchLevel: "full", matchedWords: ["shoe"], fullyHighlighted: false });
    assert.deepEqual(h._highlightResult.tags.map((t) => t.value), ["trail", "running __ais-highlight__shoe__/ais-highlight__"]);
    assert.deepEqual(h._highlightResult.brand.name, { value: "Acme", matchLevel: "none", matchedWords: [] });
    assert.deepEqual(h._rankingInfo, { promoted: true });
    assert.deepEqual(h._variants, [{ objectID: "sku-2", name: "Blue shoe" }]);
    assert.deepEqual([results.nbHits, results.nbPages, results.page, results.hitsPerPage], [45, 5, 0, 10]);
    assert.deepEqual(results.userData, [{ banner: "Sale" }]);
    assert.deepEqual(results.appliedRules, [{ objectID: "pin" }]);
  });

  test("passes renderingContent on, so that facets and their values follow facetOrdering", async () => {
    const ordering = { facets: { order: ["color", "brand"] }, values: { brand: { order: ["initech"], sortRemainingBy: "alpha", hide: ["globex"] } } };
    const aisle = fakeAisle({ answer: () => searchAnswer({ facets: brandFacet, renderingContent: { facetOrdering: ordering } }) });
    const client = aisleSearchClient({ baseUrl: "http://aisle.test", fetch: aisle.fetch });
    const results = await searched(helperOn(client, { facets: ["brand"] }));

    assert.deepEqual(results.renderingContent, { facetOrdering: ordering });
    assert.deepEqual(results.getFacetValues("brand", { facetOrdering: true }).map((v) => v.name), ["initech", "acme"]);
  });

  test("leaves renderingContent out when the answer has none", async () => {
    const aisle = fakeAisle({ answer: () => searchAnswer({ facets: brandFacet }) });
    const client = aisleSearchClient({ baseUrl: "http://aisle.test", fetch: aisle.fetch });
    const results = await searched(helperOn(client, { facets: ["brand"] }));
    assert.equal(results.renderingContent, undefined);
  });

  test("searches facet values within the search, its own selection left out", async () => {
    const aisle = fakeAisle({ facets: () => ({ values: [{ value: "globex", count: 3, highlighted: "<em>glo</em>bex &amp; co" }] }) });
    const client = aisleSearchClient({ baseUrl: "http://aisle.test", fetch: aisle.fetch });
    const helper = helperOn(client, { disjunctiveFacets: ["brand", "color"], highlightPreTag: "[", highlightPostTag: "]" })
      .addDisjunctiveFacetRefinement("brand", "acme").addDisjunctiveFacetRefinement("color", "red").setQuery("shoe");
    const res = await helper.searchForFacetValues("brand", "glo", 5);

    assert.equal(aisle.sent[0].url, "http://aisle.test/api/public/indexes/products/facets/brand/search");
    assert.deepEqual(aisle.sent[0].body, { facetQuery: "glo", q: "shoe", maxValues: 5, facetFilters: { color: ["red"] } });
    assert.deepEqual(res.facetHits.map(({ value, count, highlighted, isRefined }) => ({ value, count, highlighted, isRefined })),
      [{ value: "globex", count: 3, highlighted: "[glo]bex & co", isRefined: false }]);
  });

  test("sends a refinement back as the value Aisle gave, a boolean or a number", async () => {
    const aisle = fakeAisle({ answer: () => searchAnswer({ facets: { inStock: [{ value: true, count: 2 }], size: [{ value: 42, count: 1 }] } }) });
    const client = aisleSearchClient({ baseUrl: "http://aisle.test", fetch: aisle.fetch });
    const helper = helperOn(client, { facets: ["inStock"], disjunctiveFacets: ["size"] });
    await searched(helper);
    helper.addFacetRefinement("inStock", "true").addDisjunctiveFacetRefinement("size", "42");
    await searched(helper);
    const main = aisle.sent[1].body.queries[0];
    assert.deepEqual(main.filters, { field: "inStock", eq: true });
    assert.deepEqual(main.facetFilters, { size: [42] });
  });

  test("maps exclusions, groups across facets and numeric forms to filters", async () => {
    const aisle = fakeAisle();
    const client = aisleSearchClient({ baseUrl: "http://aisle.test", fetch: aisle.fetch });
    await client.search([{ indexName: "products", params: {
      facetFilters: ["color:-red", "brand:\\-dash", ["brand:a", "color:b"]],
      numericFilters: [["price=5", "price!=6"], "rating:1 TO 4"],
    } }]);
    assert.deepEqual(aisle.sent[0].body.queries[0].filters, { and: [
      { not: { field: "color", eq: "red" } },
      { field: "brand", eq: "-dash" },
      { or: [{ field: "brand", eq: "a" }, { field: "color", eq: "b" }] },
      { or: [{ field: "price", eq: 5 }, { not: { field: "price", eq: 6 } }] },
      { field: "rating", range: { gte: 1, lte: 4 } },
    ] });
  });

  test("searches the keyed endpoints with a secured key, 50 queries a request; the public ones 10", async () => {
    const keyed = fakeAisle();
    const requests = Array.from({ length: 12 }, (_, i) => ({ indexName: "products", params: { query: `q${i}` } }));
    const client = aisleSearchClient({ baseUrl: "http://aisle.test", apiKey: "sk_1", workspace: "shop", fetch: keyed.fetch });
    assert.equal((await client.search(requests)).results.length, 12);
    assert.equal(keyed.sent.length, 1);
    assert.equal(keyed.sent[0].url, "http://aisle.test/api/teams/shop/multi-search");
    assert.equal(keyed.sent[0].headers.Authorization, "Bearer sk_1");
    assert.equal(keyed.sent[0].body.queries[11].index, "products");

    const pub = fakeAisle();
    const { results } = await aisleSearchClient({ baseUrl: "http://aisle.test", fetch: pub.fetch }).search(requests);
    assert.deepEqual(pub.sent.map((s) => s.body.queries.length), [10, 2]);
    assert.deepEqual(results.map((r) => r.query), requests.map((r) => r.params.query));
  });

  test("fails the search when a query fails, with its status", async () => {
    const aisle = fakeAisle({ answer: () => ({ error: "facets: color is not a facet field", status: 400 }) });
    const client = aisleSearchClient({ baseUrl: "http://aisle.test", fetch: aisle.fetch });
    await assert.rejects(client.search([{ indexName: "products", params: {} }]), { status: 400, message: /color is not a facet/ });
    await assert.rejects(client.search([{ indexName: "products", params: { numericFilters: ["price>>3"] } }]), { status: 400 });
    await assert.rejects(client.search([{ indexName: "products", params: { filters: "brand:acme" } }]), /filter strings/);
  });

  test("reuses an answer for the same query and facet value search, until cacheSeconds or clearCache", async () => {
    const aisle = fakeAisle({ answer: (q) => searchAnswer({ total: q.q.length }), facets: () => ({ values: [{ value: "acme", count: 2 }] }) });
    const client = aisleSearchClient({ baseUrl: "http://aisle.test", fetch: aisle.fetch });
    const shoe = { indexName: "products", params: { query: "shoe" } };
    const facet = { indexName: "products", type: "facet", facet: "brand", params: { facetQuery: "ac" } };
    await client.search([shoe, facet]);
    const again = await client.search([shoe, { indexName: "products", params: { query: "shoes" } }, facet]);
    assert.deepEqual(again.results.map((r) => r.nbHits ?? r.facetHits.length), [4, 5, 1]);
    assert.deepEqual(aisle.sent.map((r) => r.body.queries?.map((q) => q.q) ?? "facets"), ["facets", ["shoe"], ["shoes"]],
      "only the query it had not seen reaches Aisle");
    await client.clearCache();
    await client.search([shoe]);
    assert.equal(aisle.sent.length, 4, "InstantSearch's refresh() asks again");

    const uncached = fakeAisle();
    const fresh = aisleSearchClient({ baseUrl: "http://aisle.test", fetch: uncached.fetch, cacheSeconds: 0 });
    await fresh.search([shoe]);
    await fresh.search([shoe]);
    assert.equal(uncached.sent.length, 2, "cacheSeconds 0 keeps nothing");
  });

  test("sends identical queries of one search once, and does not keep a query that failed", async () => {
    let fail = true;
    const aisle = fakeAisle({ answer: () => (fail ? { error: "backend unavailable", status: 503 } : searchAnswer({ total: 7 })) });
    const client = aisleSearchClient({ baseUrl: "http://aisle.test", fetch: aisle.fetch });
    const shoe = { indexName: "products", params: { query: "shoe" } };
    await assert.rejects(client.search([shoe, shoe]), { status: 503 });
    assert.equal(aisle.sent[0].body.queries.length, 1);
    fail = false;
    const { results } = await client.search([shoe, shoe]);
    assert.deepEqual(results.map((r) => r.nbHits), [7, 7]);
    assert.equal(aisle.sent.length, 2, "the failed answer was not reused");
  });

  test("stops paging where a search may reach (offset + limit at most 1,000)", async () => {
    const aisle = fakeAisle({ answer: () => searchAnswer({ total: 5000, hits: [{ objectID: "x", record: {} }] }) });
    const client = aisleSearchClient({ baseUrl: "http://aisle.test", fetch: aisle.fetch });
    const { results } = await client.search([
      { indexName: "p", params: { hitsPerPage: 30, page: 33 } },
      { indexName: "p", params: { hitsPerPage: 30, page: 34 } },
    ]);
    assert.deepEqual(aisle.sent[0].body.queries.map((q) => [q.offset, q.limit]), [[990, 10], [0, 1]]);
    assert.deepEqual(results.map((r) => [r.nbPages, r.hits.length]), [[33, 1], [33, 0]]);
  });
});
