// Aisle's InstantSearch adapter: a searchClient on which instantsearch.js and
// react-instantsearch widgets run against Aisle, no dependencies. README.md ("InstantSearch")
// says what maps and what does not; instantsearch.d.ts declares it.

const MAX_WINDOW = 1000; // offset + limit, the search's paging limit
const ALGOLIA_TAGS = { pre: "<em>", post: "</em>" }; // Algolia's default highlight tags

// aisleSearchClient returns the searchClient to hand to instantsearch({searchClient}).
// Without apiKey it searches the public endpoints (an index name is a public ID, or
// indexes maps it to one); with apiKey (a secured key) and workspace, the keyed ones.
export function aisleSearchClient(options) {
  const api = endpoints(options);
  const types = new Map(); // attribute -> Map(value as a string -> value as Aisle gave it)
  const cache = answerCache(options.cacheSeconds ?? 120);
  const facetSearch = async (request) => {
    const { field, target, body } = facetSearchOf(request, api, types);
    const answer = await cache.get(["facets", target.id, field, body], () => api.facetSearch(target, field, body));
    remember(types, { [field]: answer.values });
    return facetHitsOf(answer, tagsOf(request.params));
  };
  return {
    async search(requests) {
      const results = [];
      const misses = [];
      requests.forEach((r, i) => {
        if (r.type === "facet") {
          results[i] = facetSearch(r);
          return;
        }
        const q = queryOf(r, api, types);
        const answer = cache.get(["search", q.id, q.body], () => new Promise((resolve, reject) => misses.push({ q, resolve, reject })));
        results[i] = answer.then((a) => resultOf(r, a, api, types));
      });
      await Promise.all(chunks(misses, api.maxQueries).map(async (batch) => {
        try {
          const answers = (await api.multiSearch(batch.map((m) => m.q))).results;
          // A query that failed is not kept: its failure rejects its answer.
          batch.forEach((m, n) => (answers[n].error === undefined ? m.resolve(answers[n]) : m.reject(failure(answers[n].error, answers[n].status))));
        } catch (err) {
          batch.forEach((m) => m.reject(err));
        }
      }));
      return { results: await Promise.all(results) };
    },
    searchForFacetValues(requests) {
      return Promise.all(requests.map(facetSearch));
    },
    clearCache() {
      cache.clear();
      return Promise.resolve();
    },
  };
}

// answerCache keeps each request's answer (a promise, so identical requests in flight
// share one) for seconds, as Algolia's and Typesense's clients do: typing back over a
// query, paging back and toggling a refinement off do not reach Aisle again, and the
// public rate limit counts each query of a multi-search. A failed request is not kept;
// seconds 0 keeps nothing. At most 500 answers, the oldest dropped first.
function answerCache(seconds) {
  const kept = new Map(); // key -> { at, answer }
  return {
    get(parts, load) {
      const key = JSON.stringify(parts);
      const now = Date.now();
      const hit = kept.get(key);
      if (hit && now - hit.at < seconds * 1000) return hit.answer;
      const answer = load();
      if (seconds > 0) {
        kept.delete(key);
        kept.set(key, { at: now, answer });
        if (kept.size > 500) kept.delete(kept.keys().next().value);
        answer.catch(() => kept.get(key)?.answer === answer && kept.delete(key));
      }
      return answer;
    },
    clear() {
      kept.clear();
    },
  };
}

// endpoints is where and how the client calls Aisle: the public endpoints, or the keyed
// ones with a (secured) key.
function endpoints({ baseUrl, apiKey, workspace, indexes = {}, params = {}, fetch: fetcher }) {
  const root = `${baseUrl.replace(/\/$/, "")}/api`;
  const keyed = apiKey !== undefined;
  if (keyed && !workspace) throw new Error("aisleSearchClient: a key needs its workspace");
  const call = callWith(fetcher || ((...a) => fetch(...a)), keyed ? { Authorization: `Bearer ${apiKey}` } : {});
  const scope = keyed ? `${root}/teams/${encodeURIComponent(workspace)}` : `${root}/public`;
  const idField = keyed ? "index" : "publicId";
  return {
    maxQueries: keyed ? 50 : 10,
    maxLimit: keyed ? 100 : 50,
    params,
    target(indexName) {
      const t = indexes[indexName] ?? indexName;
      return typeof t === "string" ? { id: t } : { ...t, id: t[idField] ?? indexName };
    },
    multiSearch: (queries) => call(`${scope}/multi-search`, { queries: queries.map(({ id, body }) => ({ [idField]: id, ...body })) }),
    facetSearch: (target, field, body) =>
      call(`${scope}/indexes/${encodeURIComponent(target.id)}/facets/${encodeURIComponent(field)}/search`, body),
  };
}

function callWith(fetcher, headers) {
  return async (url, body) => {
    const res = await fetcher(url, {
      method: "POST",
      headers: { "Content-Type": "application/json", ...headers },
      body: JSON.stringify(body),
      credentials: "omit",
    });
    const answer = await res.json().catch(() => ({}));
    if (!res.ok) throw failure(answer.error || `request failed with status ${res.status}`, res.status);
    return answer;
  };
}

// failure is an error as algoliasearch's: its message and status.
function failure(message, status) {
  return Object.assign(new Error(message), { name: "AisleError", status });
}

function chunks(list, size) {
  const out = [];
  for (let i = 0; i < list.length; i += size) out.push(list.slice(i, i + size));
  return out;
}

// queryOf turns one of InstantSearch's requests into a query of a multi-search.
function queryOf({ indexName, params = {} }, api, types) {
  const target = api.target(indexName);
  const body = { q: params.query ?? "", ...windowOf(params, api.maxLimit) };
  const facets = [].concat(params.facets ?? []).filter((f) => f !== "*");
  if (facets.length) body.facets = facets;
  if (params.maxValuesPerFacet !== undefined) body.maxValuesPerFacet = clamp(params.maxValuesPerFacet, 1, 100);
  Object.assign(body, filtersOf(params, target, types));
  if (params.hitsPerPage === 0 || isEmpty(params.attributesToHighlight)) body.highlight = false;
  const snippets = snippetsOf(params.attributesToSnippet);
  if (snippets.length) body.snippets = snippets;
  const fields = [].concat(params.attributesToRetrieve ?? []);
  if (fields.length && !fields.includes("*")) body.fields = fields;
  for (const k of ["distinct", "enableRules", "typoTolerance"]) {
    if (typeof params[k] === "boolean" || (k === "distinct" && Number.isInteger(params[k]))) body[k] = params[k];
  }
  if (target.sort) body.sort = target.sort;
  return { id: target.id, body: { ...body, ...api.params, ...target.params } };
}

const isEmpty = (v) => Array.isArray(v) && v.length === 0;
const clamp = (n, lo, hi) => Math.min(hi, Math.max(lo, Math.trunc(n)));

// windowOf is the offset and limit of page × hitsPerPage; a page past what a search may
// reach, or none (hitsPerPage 0, the helper's facet-only queries), asks for one hit that
// resultOf drops.
function windowOf({ page = 0, hitsPerPage = 20 }, maxLimit) {
  const limit = Math.min(hitsPerPage, maxLimit);
  const offset = page * limit;
  if (limit <= 0 || offset >= MAX_WINDOW) return { offset: 0, limit: 1 };
  return { offset, limit: Math.min(limit, MAX_WINDOW - offset) };
}

// filtersOf maps facetFilters and numericFilters: a group of values of one facet (a
// disjunctive refinement) becomes Aisle's facetFilters, so that its counts are
// disjunctive; the rest (conjunctive refinements, exclusions, numeric filters) becomes
// filters, ANDed with the request's and the index target's filter objects.
function filtersOf(params, target, types) {
  const facetFilters = {};
  const all = [];
  for (const entry of listOf(params.facetFilters)) {
    const group = [].concat(entry).map((s) => facetFilterOf(s, types));
    const field = group[0]?.field;
    if (Array.isArray(entry) && !facetFilters[field] && group.every((c) => c.field === field && !c.not)) {
      facetFilters[field] = group.map((c) => c.value);
    } else all.push(anyOf(group.map(conditionOf)));
  }
  for (const entry of listOf(params.numericFilters)) all.push(anyOf([].concat(entry).map(numericFilterOf)));
  for (const f of [params.filters, target.filters]) {
    if (typeof f === "string" && f.trim()) throw failure("filters: Algolia's filter strings are not supported; give an Aisle filter object", 400);
    if (f && typeof f === "object") all.push(f);
  }
  const out = {};
  if (Object.keys(facetFilters).length) out.facetFilters = facetFilters;
  if (all.length) out.filters = all.length === 1 ? all[0] : { and: all };
  return out;
}

// listOf reads Algolia's filter lists: a string, a list of strings, or a list of strings
// and lists of strings (ORed).
function listOf(filters) {
  if (filters === undefined || filters === null || filters === "") return [];
  return typeof filters === "string" ? [filters] : filters;
}

const anyOf = (conds) => (conds.length === 1 ? conds[0] : { or: conds });
const conditionOf = ({ field, value, not }) => (not ? { not: { field, eq: value } } : { field, eq: value });

// facetFilterOf reads "attribute:value", "attribute:-value" (an exclusion) and
// "attribute:\-value" (a value starting with a dash), with the value as Aisle returned it
// (a number or a boolean stays one).
function facetFilterOf(s, types) {
  const at = s.indexOf(":");
  if (at < 1) throw failure(`facetFilters: "${s}" is not attribute:value`, 400);
  const field = s.slice(0, at);
  let raw = s.slice(at + 1);
  const not = raw.startsWith("-");
  if (not) raw = raw.slice(1);
  else if (raw.startsWith("\\-")) raw = raw.slice(1);
  const seen = types.get(field);
  return { field, value: seen && seen.has(raw) ? seen.get(raw) : raw, not };
}

const NUMERIC = /^\s*([^<>=!:\s]+)\s*(<=|>=|!=|<|>|=)\s*(\S+)\s*$/;
const RANGE = /^\s*([^:\s]+)\s*:\s*(\S+)\s+TO\s+(\S+)\s*$/;
const BOUNDS = { "<": "lt", "<=": "lte", ">": "gt", ">=": "gte" };

// numericFilterOf reads "price>=10" (<, <=, =, !=, >=, >) and "price:10 TO 100".
function numericFilterOf(s) {
  const r = RANGE.exec(s);
  if (r) return { field: r[1], range: { gte: number(r[2], s), lte: number(r[3], s) } };
  const m = NUMERIC.exec(s);
  if (!m) throw failure(`numericFilters: "${s}" is not attribute<op>number`, 400);
  const [, field, op, v] = m;
  if (op === "=") return { field, eq: number(v, s) };
  if (op === "!=") return { not: { field, eq: number(v, s) } };
  return { field, range: { [BOUNDS[op]]: number(v, s) } };
}

function number(v, s) {
  const n = Number(v);
  if (v === "" || !Number.isFinite(n)) throw failure(`numericFilters: "${s}" is not attribute<op>number`, 400);
  return n;
}

// snippetsOf reads attributesToSnippet ("description:20", or "description" for Aisle's 10 words).
function snippetsOf(list) {
  return [].concat(list ?? []).filter((a) => a !== "*").slice(0, 10).map((a) => {
    const [field, words] = a.split(":");
    return words ? { field, words: clamp(Number(words) || 10, 1, 100) } : { field };
  });
}

// resultOf turns Aisle's answer to a query into the result InstantSearch reads.
function resultOf({ indexName, params = {} }, answer, api, types) {
  if (answer.error !== undefined) throw failure(answer.error, answer.status);
  remember(types, answer.facets);
  const page = params.page ?? 0;
  const hitsPerPage = Math.min(params.hitsPerPage ?? 20, api.maxLimit);
  const reached = hitsPerPage > 0 && page * hitsPerPage < MAX_WINDOW;
  const tags = tagsOf(params);
  const result = {
    index: indexName,
    query: params.query ?? "",
    params: "",
    hits: reached ? answer.hits.map((h) => hitOf(h, tags)) : [],
    nbHits: answer.total,
    page,
    hitsPerPage,
    nbPages: hitsPerPage > 0 ? Math.min(Math.ceil(answer.total / hitsPerPage), Math.floor(MAX_WINDOW / hitsPerPage)) : 0,
    processingTimeMS: answer.took ?? 0,
    exhaustiveNbHits: true,
    exhaustiveFacetsCount: true,
    facets: facetsOf(answer.facets),
  };
  if (answer.facetStats) result.facets_stats = answer.facetStats;
  if (answer.userData) result.userData = answer.userData;
  if (answer.appliedRules) result.appliedRules = answer.appliedRules.map((objectID) => ({ objectID }));
  // Algolia's shape already: DynamicWidgets orders the facets by facetOrdering.facets, and
  // the helper's getFacetValues their values by facetOrdering.values.
  if (answer.renderingContent) result.renderingContent = answer.renderingContent;
  return result;
}

function facetsOf(facets = {}) {
  const out = {};
  for (const [field, values] of Object.entries(facets)) {
    out[field] = Object.fromEntries(values.map(({ value, count }) => [String(value), count]));
  }
  return out;
}

// remember keeps the values of each facet as Aisle gave them, so that a refinement of
// "inStock:true" or "size:42" is sent back as the boolean or the number.
function remember(types, facets = {}) {
  for (const [field, values] of Object.entries(facets)) {
    if (!types.has(field)) types.set(field, new Map());
    for (const { value } of values) types.get(field).set(String(value), value);
  }
}

const tagsOf = (params = {}) => ({
  pre: params.highlightPreTag ?? ALGOLIA_TAGS.pre,
  post: params.highlightPostTag ?? ALGOLIA_TAGS.post,
});

// hitOf is a hit as Algolia gives it: the record's fields with objectID, what matched in
// _highlightResult and _snippetResult, _rankingInfo.promoted for a record a rule placed,
// and the other records of its group in _variants.
function hitOf(hit, tags) {
  const out = { ...hit.record, objectID: hit.objectID, _highlightResult: highlightResultOf(hit.record, hit.highlights, tags) };
  if (hit.snippets) {
    out._snippetResult = Object.fromEntries(Object.entries(hit.snippets).map(([f, s]) => [f, partOf(s, tags)]));
  }
  if (hit.promoted) out._rankingInfo = { promoted: true };
  if (hit.variants) out._variants = hit.variants.map((v) => ({ ...v.record, objectID: v.objectID }));
  return out;
}

// highlightResultOf gives every string of the record a _highlightResult entry, as
// Algolia does, and what Aisle highlighted its tags.
function highlightResultOf(record, highlights = {}, tags) {
  const out = unmatched(record);
  for (const [path, value] of Object.entries(highlights)) {
    const keys = path.split(".");
    const parent = keys.slice(0, -1).reduce((o, k) => (o && typeof o === "object" ? o[k] : undefined), out);
    const last = keys[keys.length - 1];
    if (!parent || typeof parent !== "object" || !(last in parent)) continue;
    parent[last] = Array.isArray(value) ? mergeArray(parent[last], value, tags) : partOf(value, tags);
  }
  return out;
}

function unmatched(value) {
  if (typeof value === "string") return { value, matchLevel: "none", matchedWords: [] };
  if (Array.isArray(value)) return value.map(unmatched);
  if (value && typeof value === "object") {
    const out = {};
    for (const [k, v] of Object.entries(value)) {
      const u = unmatched(v);
      if (u !== undefined) out[k] = u;
    }
    return out;
  }
  return undefined;
}

// mergeArray puts the highlighted strings of an array field in the places of the values
// they mark (Aisle returns the matched ones).
function mergeArray(entries, highlighted, tags) {
  const parts = highlighted.map((h) => [unescapeHTML(h.replace(/<\/?em>/g, "")), partOf(h, tags)]);
  if (!Array.isArray(entries)) return parts.map(([, p]) => p);
  const byText = new Map(parts);
  return entries.map((e) => (e && byText.has(e.value) ? byText.get(e.value) : e));
}

// partOf turns Aisle's HTML-escaped text with matches in <em> into Algolia's form: the
// text unescaped, matches between the request's tags (InstantSearch escapes it again).
function partOf(escaped, tags) {
  let value = "";
  let inside = false;
  let plain = 0;
  const words = new Set();
  for (const piece of String(escaped).split(/(<\/?em>)/)) {
    if (piece === "<em>" || piece === "</em>") {
      inside = piece === "<em>";
      value += inside ? tags.pre : tags.post;
      continue;
    }
    const text = unescapeHTML(piece);
    value += text;
    if (inside && text.trim()) words.add(text.toLowerCase());
    else plain += text.trim().length;
  }
  const part = { value, matchLevel: words.size ? "full" : "none", matchedWords: [...words] };
  if (words.size) part.fullyHighlighted = plain === 0;
  return part;
}

const ENTITIES = { amp: "&", lt: "<", gt: ">", quot: '"', apos: "'", "#39": "'", "#34": '"' };

function unescapeHTML(s) {
  return s.replace(/&(#x[0-9a-f]+|#\d+|[a-z]+);/gi, (m, e) => {
    if (ENTITIES[e.toLowerCase()]) return ENTITIES[e.toLowerCase()];
    if (e[0] !== "#") return m;
    const code = e[1] === "x" || e[1] === "X" ? parseInt(e.slice(2), 16) : parseInt(e.slice(1), 10);
    return String.fromCodePoint(code);
  });
}

// facetSearchOf turns a search for facet values (searchForFacetValues' request, or a
// search() request of type "facet") into Aisle's facet value search.
function facetSearchOf({ indexName, facet, params = {} }, api, types) {
  const field = facet ?? params.facetName;
  const body = { facetQuery: params.facetQuery ?? "", q: params.query ?? "" };
  if (params.maxFacetHits !== undefined) body.maxValues = clamp(params.maxFacetHits, 1, 100);
  Object.assign(body, filtersOf(params, api.target(indexName), types));
  return { field, target: api.target(indexName), body };
}

function facetHitsOf(answer, tags) {
  return {
    facetHits: answer.values.map(({ value, count, highlighted }) => ({
      value: String(value),
      count,
      highlighted: partOf(highlighted, tags).value,
    })),
    exhaustiveFacetsCount: true,
    processingTimeMS: 0,
  };
}
