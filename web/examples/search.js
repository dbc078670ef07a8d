// A shop's search page on Aisle, with Algolia's InstantSearch widgets (instantsearch.js,
// loaded by index.html) and Aisle's adapter. Copy this folder and set the two values below.
import { aisleSearchClient } from "../instantsearch.js"; // "@aislehq/aisle/instantsearch" from npm

// The API server and the index's public ID (its allowed origins must hold this page's).
// ?api=…&publicId=… in the page's address override them (the repository's test does).
const query = new URLSearchParams(location.search);
const baseUrl = query.get("api") || "https://search.example.com";
const publicId = query.get("publicId") || "YOUR_PUBLIC_ID";

const { searchBox, refinementList, rangeSlider, hits, pagination, stats, configure, queryRuleCustomData } = instantsearch.widgets;

const search = instantsearch({
  indexName: "products",
  searchClient: aisleSearchClient({
    baseUrl,
    indexes: { products: publicId },
    // One card per product (the index's distinct setting groups its colours and sizes);
    // each card gets up to 5 other records of its group as swatches.
    params: { variantsLimit: 5 },
  }),
});

search.addWidgets([
  configure({ hitsPerPage: 4 }),
  searchBox({ container: "#searchbox", placeholder: "Search the shop", showLoadingIndicator: false }),
  // Disjunctive: choosing a brand keeps the other brands listed, with the counts they would have.
  refinementList({ container: "#brand", attribute: "brand", operator: "or", searchable: true,
    searchablePlaceholder: "Search brands", sortBy: ["count:desc", "name:asc"] }),
  refinementList({ container: "#color", attribute: "color", operator: "or", sortBy: ["count:desc", "name:asc"] }),
  // Its bounds are the price facet's facetStats over the search, without the price's own range.
  rangeSlider({ container: "#price", attribute: "price", pips: false }),
  stats({ container: "#stats", templates: { text: ({ nbHits }, { html }) => html`${nbHits} products` } }),
  // The userData of the merchandising rules the query triggered: {"banner": "…"}.
  queryRuleCustomData({
    container: "#banner",
    templates: { default: ({ items }, { html }) => html`${items.filter((d) => d && d.banner).map((d) => html`<p class="banner">${d.banner}</p>`)}` },
  }),
  hits({
    container: "#hits",
    templates: {
      item: (hit, { html, components }) => html`
        <article class="card" data-object-id=${hit.objectID} data-group=${hit.groupId}>
          ${hit._rankingInfo && hit._rankingInfo.promoted ? html`<span class="pinned">Featured</span>` : ""}
          <h3 class="name">${components.Highlight({ hit, attribute: "name" })}</h3>
          <p class="brand">${hit.brand}</p>
          <p class="price">${hit.price} €</p>
          <ul class="swatches">
            ${[hit, ...(hit._variants || [])].map((v) => html`<li class="swatch" data-object-id=${v.objectID} title=${v.color}>${v.color}</li>`)}
          </ul>
        </article>`,
      empty: (results, { html }) => html`No products for “${results.query}”.`,
    },
  }),
  pagination({ container: "#pagination", padding: 2 }),
]);

search.start();
// Lets a test (or a curious developer) see when the page has settled.
window.search = search;
