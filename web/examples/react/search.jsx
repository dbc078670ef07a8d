// A shop's search page on Aisle with React InstantSearch (react-instantsearch from npm)
// and Aisle's adapter, whose facets follow the index's facet ordering: DynamicWidgets
// shows the facets in the order of the answer's renderingContent.facetOrdering (the
// index's facetOrdering setting, or a rule's), and each refinement list its values in
// the order it gives (pinned values first, the others by count or alphabetically, or not
// at all). Change the order in the studio, or with PUT /config, and the page follows.
// Build it with `npm run example:react` in web/ (esbuild bundles it into search.bundle.js).
import { useEffect } from "react";
import { createRoot } from "react-dom/client";
import { Configure, DynamicWidgets, Hits, InstantSearch, RefinementList, SearchBox, useInstantSearch } from "react-instantsearch";
import { aisleSearchClient } from "../../instantsearch.js"; // "@aislehq/aisle/instantsearch" from npm

// The API server and the index's public ID (its allowed origins must hold this page's).
// ?api=…&publicId=… in the page's address override them (the repository's test does).
const params = new URLSearchParams(location.search);
const baseUrl = params.get("api") || "https://search.example.com";
const publicId = params.get("publicId") || "YOUR_PUBLIC_ID";
const searchClient = aisleSearchClient({ baseUrl, indexes: { products: publicId } });

const TITLES = { brand: "Brand", color: "Colour" };

// Facet is one facet of the page: its title and its values. Without sortBy, the list
// orders its values as the facet ordering says.
function Facet({ attribute }) {
  return (
    <section className="facet" data-facet={attribute} aria-labelledby={`facet-${attribute}`}>
      <h2 id={`facet-${attribute}`}>{TITLES[attribute] || attribute}</h2>
      <RefinementList attribute={attribute} />
    </section>
  );
}

function Hit({ hit }) {
  return (
    <article className="card" data-object-id={hit.objectID}>
      <h3 className="name">{hit.name}</h3>
      <p className="brand">{hit.brand}</p>
    </article>
  );
}

// Settled tells on the page's body when InstantSearch has answered (for a test, or a
// curious developer).
function Settled() {
  const { status, results } = useInstantSearch();
  useEffect(() => {
    document.body.dataset.state = status;
  }, [status, results]);
  return null;
}

function App() {
  return (
    <InstantSearch searchClient={searchClient} indexName="products">
      <Configure hitsPerPage={8} />
      <Settled />
      <header><SearchBox placeholder="Search the shop" /></header>
      <main>
        {/* Only the facets of the ordering are shown, in its order; a facet it does not
            name (and no "*") is left out, as Algolia's DynamicWidgets does. */}
        <aside aria-label="Filters">
          <DynamicWidgets facets={[]}>
            <Facet attribute="brand" />
            <Facet attribute="color" />
          </DynamicWidgets>
        </aside>
        <section aria-label="Products"><Hits hitComponent={Hit} /></section>
      </main>
    </InstantSearch>
  );
}

createRoot(document.getElementById("app")).render(<App />);
