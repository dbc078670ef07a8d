// Aisle browser search client: a few lines over fetch, no dependencies.
//
//   const client = new AisleSearch({ baseUrl: "https://search.example", publicId: "..." });
//   const res = await client.search({ q: "shoe", limit: 10, facets: ["brand"] });
//   // res.hits[i].record, res.hits[i].highlights (HTML-escaped, <em> around matches)
//
// The page's origin must be one of the index's allowed origins; the browser refuses the
// answer otherwise (no CORS headers), and search() throws.
export class AisleSearch {
  constructor({ baseUrl, publicId }) {
    this.url = `${baseUrl.replace(/\/$/, "")}/api/public/indexes/${encodeURIComponent(publicId)}/search`;
  }

  async search(request = {}) {
    const res = await fetch(this.url, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify(request),
    });
    const body = await res.json().catch(() => ({}));
    if (!res.ok) {
      const err = new Error(body.error || `search failed with status ${res.status}`);
      err.status = res.status;
      err.retryAfter = res.headers.get("Retry-After");
      throw err;
    }
    return body;
  }
}
