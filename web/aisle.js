// Aisle browser client: search, Bought together and shopper events, no dependencies.
// See README.md beside this file for the API; aisle.d.ts declares it.

const MAX_EVENTS = 100; // per request, the contract's browser limit
// Under the 64 KiB that a browser lets keepalive requests and beacons carry at once.
const MAX_BYTES = 60 * 1024 - 1;
const TICK = 1000; // the background queue sends about once a second
const MAX_BACKOFF = 60000;
// Stored events older than this are dropped: the server dates an event when it arrives,
// so a later send would put it on the wrong day.
const EXPIRY = 3600000;
const MAX_STORED = 1000;
const BODY_BYTES = 13; // {"events":[]}

const encoder = new TextEncoder();
const bytes = (s) => encoder.encode(s).length;

// take returns how many events from the head of queue fit in one request.
export function take(queue) {
  let size = BODY_BYTES;
  let n = 0;
  for (; n < queue.length && n < MAX_EVENTS; n++) {
    size += queue[n].b + (n ? 1 : 0);
    if (size > MAX_BYTES) break;
  }
  return n || Math.min(queue.length, 1);
}

// backoff is the wait before retry number attempt (1, 2, ...): doubling from a second, up
// to a minute, with jitter so that many pages do not retry in step.
export function backoff(attempt, random = Math.random) {
  const base = Math.min(MAX_BACKOFF, TICK * 2 ** (attempt - 1));
  return base / 2 + random() * base / 2;
}

// retryWait is how long to wait before resending after an answer with status (0 for a
// network error), or -1 when the batch is done: sent, or refused for good.
export function retryWait(status, retryAfter, attempt) {
  if (status === 429) {
    const s = Number(retryAfter);
    return s >= 0 ? Math.min(s * 1000, MAX_BACKOFF * 10) : backoff(attempt);
  }
  return status === 0 || status >= 500 ? backoff(attempt) : -1;
}

export class Aisle {
  // options: {baseUrl, publicId, events: "on" | "off" | "hold", storage}
  constructor({ baseUrl, publicId, events = "on", storage }) {
    this.base = `${baseUrl.replace(/\/$/, "")}/api/public/indexes/${encodeURIComponent(publicId)}`;
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
    return this.call("/search", {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify(request),
    });
  }

  async boughtTogether(objectID, { limit } = {}) {
    const q = limit === undefined ? "" : `?limit=${encodeURIComponent(limit)}`;
    return this.call(`/lists/together/${encodeURIComponent(objectID)}${q}`, {});
  }

  view(objectID) {
    this.add({ type: "view", objectID });
  }

  // click({objectID, position, query}) for a search result, or
  // click({objectID, position, list, from}) for a product of a list.
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

  async call(path, init) {
    const res = await fetch(this.base + path, { ...init, credentials: "omit" });
    const body = await res.json().catch(() => ({}));
    if (!res.ok) {
      const err = new Error(body.error || `request failed with status ${res.status}`);
      err.status = res.status;
      err.retryAfter = res.headers.get("Retry-After");
      throw err;
    }
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
    if (Date.now() < this.notBefore) return this.schedule(0);
    const batch = this.queue.splice(0, take(this.queue));
    if (!batch.length) return;
    this.inflight = batch;
    this.save();
    const body = this.body(batch);
    fetch(`${this.base}/events`, {
      method: "POST",
      body,
      credentials: "omit",
      keepalive: bytes(body) <= MAX_BYTES,
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

  // leave sends what is queued by beacon when the page is hidden or closed, and stores
  // what could not be sent for the next page. A page that closes keeps no events in memory:
  // the next page (or this one, restored from the back-forward cache) takes them from
  // storage, so none is sent twice.
  leave(closing) {
    if (this.gone) return;
    if (this.mode === "on" && Date.now() >= this.notBefore) {
      while (this.queue.length) {
        const n = take(this.queue);
        if (!this.beacon(this.body(this.queue.slice(0, n)))) break;
        this.queue.splice(0, n);
      }
    }
    this.save();
    if (closing) {
      clearTimeout(this.timer);
      this.timer = 0;
      this.queue = [];
      // The visibilitychange that follows pagehide must not overwrite what was stored.
      this.gone = true;
    }
  }

  beacon(body) {
    const url = `${this.base}/events`;
    if (bytes(body) > MAX_BYTES) return false;
    try {
      if (navigator.sendBeacon && navigator.sendBeacon(url, body)) return true;
      fetch(url, { method: "POST", body, credentials: "omit", keepalive: true, headers: { "Content-Type": "text/plain" } })
        .catch(() => {});
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
    const items = this.mode === "off" ? [] : orders.concat(this.queue);
    try {
      if (items.length) this.store.setItem(this.key, JSON.stringify(items));
      else this.store.removeItem(this.key);
    } catch {
      // A full or disabled storage keeps events in memory only.
    }
  }

  load() {
    let items = [];
    try {
      items = JSON.parse(this.store.getItem(this.key)) || [];
    } catch {
      // Nothing stored, or not readable: start empty.
    }
    const now = Date.now();
    for (const x of items) if (x && x.e && now - x.t < EXPIRY) this.queue.push(x);
    this.schedule(TICK);
  }
}

// AisleSearch is the name of the search-only client this one replaces.
export { Aisle as AisleSearch };
