// Aisle browser client: search, recommendation lists and shopper events, no dependencies.
// See README.md beside this file for the API; aisle.d.ts declares it.

const MAX_EVENTS = 100; // per request, the contract's browser limit
// Under the 64 KiB that a browser lets keepalive requests and beacons carry at once.
const MAX_BYTES = 60 * 1024 - 1;
// What a page may have in flight by beacon and keepalive fetch together (the Fetch
// standard's 64 KiB): the browser refuses a request past it, when the page closing can no
// longer learn so.
const KEEPALIVE_BYTES = 64 * 1024;
const TICK = 1000; // the background queue sends about once a second
const MAX_BACKOFF = 60000;
// Events older than this are dropped: the server dates an event when it arrives, so a
// later send would put it on the wrong day.
const EXPIRY = 3600000;
const MAX_STORED = 1000;
const BODY_BYTES = 13; // {"events":[]}

const encoder = new TextEncoder();
const bytes = (s) => encoder.encode(s).length;
const expired = (x, now) => !(now - x.t < EXPIRY);

// size is the bytes of the request that carries batch (see body).
const size = (batch) => batch.reduce((n, x) => n + x.b + 1, BODY_BYTES - 1);

// take returns how many events from the head of queue fit in one request of at most limit
// bytes. Without a limit, an event larger than a request goes alone: the server decides.
export function take(queue, limit) {
  const max = limit ?? MAX_BYTES;
  let total = BODY_BYTES;
  let n = 0;
  for (; n < queue.length && n < MAX_EVENTS; n++) {
    total += queue[n].b + (n ? 1 : 0);
    if (total > max) break;
  }
  return n || (limit === undefined ? Math.min(queue.length, 1) : 0);
}

// backoff is the wait before retry number attempt (1, 2, ...): doubling from a second, up
// to a minute, with jitter so that many pages do not retry in step.
export function backoff(attempt, random = Math.random) {
  const base = Math.min(MAX_BACKOFF, TICK * 2 ** (attempt - 1));
  return base / 2 + random() * base / 2;
}

// retryWait is how long to wait before resending after an answer with status (0 for a
// network error), or -1 when the batch is done: sent, or refused for good.
export function retryWait(status, retryAfter, attempt, now = Date.now()) {
  if (status === 429) {
    const wait = waitOf(retryAfter, now);
    return wait >= 0 ? Math.min(wait, MAX_BACKOFF * 10) : backoff(attempt);
  }
  return status === 0 || status >= 500 ? backoff(attempt) : -1;
}

// json is the init of a POST of body as JSON.
const json = (body) => ({ method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body) });

// waitOf reads Retry-After, seconds or an HTTP date, in ms; -1 when absent or unreadable.
function waitOf(retryAfter, now) {
  const v = (retryAfter || "").trim();
  if (/^\d+$/.test(v)) return v * 1000;
  const at = Date.parse(v);
  return at ? Math.max(0, at - now) : -1;
}

export class Aisle {
  // options: {baseUrl, publicId, events: "on" | "off" | "hold", storage}
  constructor({ baseUrl, publicId, events = "on", storage }) {
    this.root = `${baseUrl.replace(/\/$/, "")}/api/public`;
    this.publicId = publicId;
    this.base = `${this.root}/indexes/${encodeURIComponent(publicId)}`;
    this.key = `aisle.events.${publicId}`;
    this.mode = events;
    this.queue = []; // {e: event, b: JSON bytes, t: queued at}
    this.inflight = null;
    this.attempt = 0;
    this.notBefore = 0;
    this.timer = 0;
    try {
      this.store = storage === undefined ? sessionStorage : storage;
    } catch {
      this.store = null; // storage disabled by the browser
    }
    if (events === "off") this.save();
    else this.load();
    if (typeof addEventListener === "function") {
      addEventListener("visibilitychange", () => document.visibilityState === "hidden" && this.leave(false));
      addEventListener("pagehide", () => this.leave(true));
      addEventListener("pageshow", (e) => {
        if (!e.persisted) return;
        this.gone = false;
        this.load();
      });
    }
  }

  async search(request = {}) {
    return this.call("/search", json(request));
  }

  // The values of a facet field matching facetQuery as a prefix (with the index's typo
  // rules), counted within the search of q, filters and facetFilters: {values: [{value,
  // count, highlighted}]}.
  async searchFacetValues(field, request = {}) {
    return this.call(`/facets/${encodeURIComponent(field)}/search`, json(request));
  }

  // Up to 10 searches in one request, of this index unless a query names another
  // publicId: {results: [...]}, in order, a failed query as {error, status}.
  async multiSearch(queries) {
    return this.call("", json({ queries: queries.map((q) => ({ publicId: this.publicId, ...q })) }), `${this.root}/multi-search`);
  }

  boughtTogether(objectID, options) {
    return this.list(`together/${encodeURIComponent(objectID)}`, options);
  }

  // Products like objectID (for a product page), and products bought with it outside its
  // category (for a cart); options: {limit, filters}, filters as in a search request.
  similar(objectID, options) {
    return this.list(`similar/${encodeURIComponent(objectID)}`, options);
  }

  goesWith(objectID, options) {
    return this.list(`goesWith/${encodeURIComponent(objectID)}`, options);
  }

  // Products whose events rose most this week; options: {limit, filters, field, value}
  // (field and value: a facet value, for a category page).
  trending(options) {
    return this.list("trending", options);
  }

  async list(path, { limit, filters, field, value } = {}) {
    return this.call(`/lists/${path}${params({ limit, filters: filters && JSON.stringify(filters), field, value })}`, {});
  }

  // Popular past searches starting with what is typed (with the index's typo rules),
  // most searched first: {suggestions: [{query, searches, hits, categories?}]};
  // options: {limit, categories} (categories: true adds the top category values).
  async suggest(q, { limit, categories } = {}) {
    return this.call(`/suggestions${params({ q, limit, categories })}`, {});
  }

  view(objectID) {
    this.add({ type: "view", objectID });
  }

  // click({objectID, position, query}) for a search result,
  // click({objectID, position, list, from}) for a product of a product's list, or
  // click({objectID, position, list: "trending"}) for a trending product.
  click({ objectID, position, query, list, from }) {
    this.add({ type: "click", objectID, position, query, list, from });
  }

  addToCart(items, currency) {
    this.add({ type: "addToCart", items, currency });
  }

  purchase(orderID, items, currency) {
    this.add({ type: "purchase", orderID, items, currency });
  }

  // consent(true) sends the held events and those that follow; consent(false) drops them
  // and every later one.
  consent(granted) {
    this.mode = granted ? "on" : "off";
    if (!granted) this.queue = [];
    this.save();
    this.schedule(0);
  }

  // pending is how many events wait to be sent (held, queued or in flight).
  get pending() {
    return this.queue.length + (this.inflight ? this.inflight.length : 0);
  }

  async call(path, init, base = this.base) {
    const res = await fetch(base + path, { ...init, credentials: "omit" }).catch((e) => {
      throw failure(e.message, 0, null); // no answer, or one the browser would not show
    });
    const body = await res.json().catch(() => ({}));
    if (!res.ok) throw failure(body.error || `request failed with status ${res.status}`, res.status, res.headers.get("Retry-After"));
    return body;
  }

  add(event) {
    if (this.mode === "off") return;
    const s = JSON.stringify(event);
    this.queue.push({ e: JSON.parse(s), b: bytes(s), t: Date.now() });
    if (this.queue.length > MAX_STORED) this.queue.shift();
    this.schedule(TICK);
  }

  schedule(delay) {
    if (this.timer || this.mode !== "on" || !this.queue.length) return;
    this.timer = setTimeout(() => {
      this.timer = 0;
      this.tick();
    }, Math.max(delay, this.notBefore - Date.now()));
  }

  tick() {
    if (this.inflight || this.mode !== "on") return;
    const now = Date.now();
    if (now < this.notBefore) return this.schedule(0);
    this.dropExpired(now);
    const batch = this.queue.splice(0, take(this.queue));
    if (!batch.length) return this.save();
    this.inflight = batch;
    this.save();
    fetch(`${this.base}/events`, {
      method: "POST",
      body: this.body(batch),
      credentials: "omit",
      keepalive: this.keepalive() > 0,
      headers: { "Content-Type": "text/plain" },
    }).then(
      (res) => this.settle(res.status, res.headers.get("Retry-After")),
      () => this.settle(0, null),
    );
  }

  // settle ends the request in flight: a success or a refusal ends its events, anything
  // else puts them back at the head of the queue for a later retry.
  settle(status, retryAfter) {
    const batch = this.inflight;
    this.inflight = null;
    const wait = retryWait(status, retryAfter, ++this.attempt);
    if (wait < 0) this.attempt = 0;
    else {
      this.notBefore = Date.now() + wait;
      if (this.mode === "on") this.queue.unshift(...batch);
    }
    this.save();
    this.schedule(TICK);
  }

  body(batch) {
    return `{"events":[${batch.map((x) => JSON.stringify(x.e)).join(",")}]}`;
  }

  // keepalive is the bytes of the request in flight when it is sent with keepalive, which
  // lets it finish if the page closes meanwhile: one within what the browser lets a page
  // have in flight. 0 for none.
  keepalive() {
    const n = this.inflight ? size(this.inflight) : 0;
    return n <= MAX_BYTES ? n : 0;
  }

  dropExpired(now) {
    this.queue = this.queue.filter((x) => !expired(x, now));
  }

  // leave sends what is queued by beacon when the page is hidden or closed, and stores
  // what could not be sent for the next page. A page that closes keeps no events in memory:
  // the next page (or this one, restored from the back-forward cache) takes them from
  // storage, so none is sent twice.
  leave(closing) {
    if (this.gone) return;
    const now = Date.now();
    this.dropExpired(now);
    if (this.mode === "on" && now >= this.notBefore) this.flush();
    this.save();
    if (closing) {
      clearTimeout(this.timer);
      this.timer = 0;
      this.queue = [];
      // The visibilitychange that follows pagehide must not overwrite what was stored.
      this.gone = true;
    }
  }

  // flush sends the queue by beacon up to what the browser lets a page have in flight,
  // the request in flight included; the rest stays queued, to be stored.
  flush() {
    let room = KEEPALIVE_BYTES - this.keepalive();
    for (let n; (n = take(this.queue, Math.min(room, MAX_BYTES))); ) {
      const batch = this.queue.slice(0, n);
      if (!this.beacon(this.body(batch), batch)) break;
      room -= size(batch);
      this.queue.splice(0, n);
    }
  }

  // beacon hands body to the browser by sendBeacon, or by fetch with keepalive where there
  // is no beacon or it was refused; false when neither takes it. A fetch refused after all
  // (beacons of an earlier hiding still in flight) gives batch back, if the page lives.
  beacon(body, batch) {
    const url = `${this.base}/events`;
    try {
      if (navigator.sendBeacon(url, body)) return true;
    } catch {
      // No beacon in this browser.
    }
    try {
      fetch(url, { method: "POST", body, credentials: "omit", keepalive: true, headers: { "Content-Type": "text/plain" } })
        .catch(() => {
          this.queue.unshift(...batch);
          this.save();
          this.schedule(TICK);
        });
      return true;
    } catch {
      return false;
    }
  }

  // save stores the queue, and the purchases of the request in flight: if the page closes
  // before it is answered, the next page resends them, and the server counts each order
  // once. Other events in flight are not stored, so that none is counted twice.
  save() {
    if (!this.store || this.gone) return;
    const orders = (this.inflight || []).filter((x) => x.e.type === "purchase");
    this.write(this.mode === "off" ? [] : orders.concat(this.queue));
  }

  // write stores items with the time before which nothing may be sent (a 429's wait), as
  // many of the newest as fit. When they do not all fit, the list stored before goes first,
  // so that a full storage never keeps one the next page would resend.
  write(items) {
    try {
      while (items.length) {
        try {
          return this.store.setItem(this.key, JSON.stringify({ w: this.notBefore, q: items }));
        } catch {
          this.store.removeItem(this.key);
          items = items.slice((items.length + 1) >> 1);
        }
      }
      this.store.removeItem(this.key);
    } catch {
      // A disabled storage keeps events in memory only.
    }
  }

  load() {
    let stored = {};
    try {
      stored = JSON.parse(this.store.getItem(this.key)) || {};
    } catch {
      // Nothing stored, or not readable: start empty.
    }
    const now = Date.now();
    for (const x of stored.q || []) if (x && x.e && !expired(x, now)) this.queue.push(x);
    this.notBefore = Math.max(this.notBefore, Number(stored.w) || 0);
    this.schedule(TICK);
  }
}

// failure is the error of an answer the client could not use: its status (0 for none).
// params renders the defined values as a query string ("" for none).
function params(values) {
  const q = new URLSearchParams();
  for (const [k, v] of Object.entries(values)) {
    if (v !== undefined) q.set(k, v);
  }
  const s = `${q}`;
  return s && "?" + s;
}

function failure(message, status, retryAfter) {
  return Object.assign(new Error(message), { status, retryAfter });
}

// AisleSearch is the name of the search-only client this one replaces.
export { Aisle as AisleSearch };
