// The client's queue as pages see it: a fake window (events, storage, beacon, fetch) and a
// mocked clock, so that closing pages, full storage and long waits run in milliseconds.
// The same behaviours run in Chromium in test/browser.
import { afterEach, beforeEach, describe, mock, test } from "node:test";
import assert from "node:assert/strict";
import { Aisle } from "../aisle.js";

const KEEPALIVE = 64 * 1024;
const settle = () => new Promise((r) => setImmediate(r));

// memoryStorage is a Storage holding at most quota characters, as browsers count it.
function memoryStorage(quota = Infinity) {
  const m = new Map();
  const used = () => [...m].reduce((n, [k, v]) => n + k.length + v.length, 0);
  return {
    getItem: (k) => (m.has(k) ? m.get(k) : null),
    setItem(k, v) {
      const before = m.get(k);
      m.set(k, String(v));
      if (used() > quota) {
        if (before === undefined) m.delete(k);
        else m.set(k, before);
        throw new DOMException("full", "QuotaExceededError");
      }
    },
    removeItem: (k) => m.delete(k),
    get length() {
      return m.size;
    },
    dump: () => Object.fromEntries(m),
  };
}

// network records what reaches the server: requests by fetch (answered by answer) and by
// beacon. Like Chromium, it refuses a beacon or keepalive request that would put more
// than 64 KiB in flight. A request waits for net.hold, when set, to be answered.
function network(answer = () => ({ status: 202 })) {
  const net = { sent: [], inflight: 0 };
  const take = (body, keepalive) => {
    const size = Buffer.byteLength(body);
    if (keepalive && net.inflight + size > KEEPALIVE) return false;
    if (keepalive) net.inflight += size;
    return true;
  };
  const record = (how, body, contentType) => net.sent.push({ how, contentType, events: JSON.parse(body).events });
  net.fetch = async (url, init) => {
    if (!take(init.body, init.keepalive)) throw new TypeError("Failed to fetch");
    record("fetch", init.body, init.headers["Content-Type"]);
    const a = answer(net.sent.length);
    if (net.hold) await net.hold;
    if (init.keepalive) net.inflight -= Buffer.byteLength(init.body);
    if (a.status === 0) throw new TypeError("Failed to fetch");
    return { status: a.status, ok: a.status < 300, headers: new Map(Object.entries(a.headers || {})), json: async () => ({}) };
  };
  net.sendBeacon = (url, body) => {
    if (!take(body, true)) return false;
    record("beacon", body, "text/plain;charset=UTF-8");
    return true; // in flight until the next page: this one is going
  };
  net.arrive = () => (net.inflight = 0); // the beacons in flight have arrived
  net.ids = () => net.sent.flatMap((s) => s.events.map((e) => e.objectID));
  // short names the objectIDs sent, for readable failures
  net.short = () => net.ids().map((id) => id.slice(-5));
  return net;
}

// page is one page of the shop: a fresh window whose client uses net and storage.
function page(net, storage, options = {}) {
  net.inflight = 0; // the last page's beacons have arrived
  const win = new EventTarget();
  globalThis.addEventListener = win.addEventListener.bind(win);
  globalThis.document = { visibilityState: "visible" };
  globalThis.fetch = net.fetch;
  Object.defineProperty(globalThis, "navigator", { value: { sendBeacon: net.sendBeacon }, configurable: true });
  const aisle = new Aisle({ baseUrl: "https://api.test", publicId: "p1", storage, ...options });
  return {
    aisle,
    hide() {
      globalThis.document.visibilityState = "hidden";
      win.dispatchEvent(new Event("visibilitychange"));
    },
    close() {
      win.dispatchEvent(new Event("pagehide"));
      this.hide();
    },
    show() {
      globalThis.document.visibilityState = "visible";
      win.dispatchEvent(new Event("visibilitychange"));
    },
  };
}

// run lets time pass on the mocked clock, answering requests as they go.
async function run(ms) {
  for (let t = 0; t < ms; t += 250) {
    mock.timers.tick(250);
    await settle();
  }
}

const views = (aisle, n, id = (i) => `v${i}`) => {
  for (let i = 0; i < n; i++) aisle.view(id(i));
};
const range = (n, id = (i) => `v${i}`) => Array.from({ length: n }, (_, i) => id(i));

beforeEach(() => mock.timers.enable({ apis: ["setTimeout", "Date"], now: Date.UTC(2026, 10, 24, 12) }));
afterEach(() => mock.timers.reset());

describe("sending", () => {
  test("events go out about a second after they are queued, as text/plain, and never again after a success", async () => {
    const net = network();
    const { aisle } = page(net, memoryStorage());
    views(aisle, 3);
    await run(500);
    assert.equal(net.sent.length, 0, "batched for about a second");
    await run(1000);
    assert.deepEqual(net.ids(), range(3));
    assert.equal(net.sent[0].contentType, "text/plain");
    await run(120000);
    assert.equal(net.sent.length, 1);
    assert.equal(aisle.pending, 0);
  });

  test("a request holds at most 100 events and under 60 KiB of UTF-8, multibyte text included", async () => {
    const net = network();
    const { aisle } = page(net, memoryStorage());
    const id = (i) => `${"商品".repeat(100)}-${i}`; // 600 bytes, 200 characters
    views(aisle, 300, id);
    await run(10000);
    assert.deepEqual(net.ids(), range(300, id));
    for (const s of net.sent) {
      const body = JSON.stringify({ events: s.events });
      assert.ok(Buffer.byteLength(body) < 60 * 1024, `${Buffer.byteLength(body)} bytes`);
      assert.ok(s.events.length <= 100);
    }
    assert.ok(net.sent.some((s) => Buffer.byteLength(JSON.stringify({ events: s.events })) > 50 * 1024), "requests are filled");
  });

  test("429 waits the seconds of Retry-After, 503 and network errors back off, and the batch is sent once after its success", async () => {
    const answers = [{ status: 429, headers: { "Retry-After": "5" } }, { status: 503 }, { status: 0 }, { status: 202 }];
    const net = network((n) => answers[n - 1] || { status: 202 });
    const { aisle } = page(net, memoryStorage());
    views(aisle, 2);
    await run(1000);
    assert.equal(net.sent.length, 1);
    await run(4500);
    assert.equal(net.sent.length, 1, "Retry-After: 5 is not over");
    await run(1000);
    assert.equal(net.sent.length, 2);
    await run(8000);
    assert.equal(net.sent.length, 4, "503, then a network error, retried within the first backoffs");
    await run(120000);
    assert.equal(net.sent.length, 4);
    for (const s of net.sent) assert.deepEqual(s.events.map((e) => e.objectID), ["v0", "v1"]);
  });

  test("events older than the stated expiry (one hour) are dropped, not sent", async () => {
    const net = network(() => ({ status: 0 }));
    const { aisle } = page(net, memoryStorage());
    views(aisle, 1);
    await run(3600000 + 120000);
    assert.equal(aisle.pending, 0);
    const after = net.sent.length;
    await run(300000);
    assert.equal(net.sent.length, after);
  });

  test("events that expire while a request hangs are not sent by the closing page", async () => {
    const net = network();
    net.hold = new Promise(() => {}); // never answered
    const shop = page(net, memoryStorage());
    views(shop.aisle, 1);
    await run(1500);
    shop.aisle.view("late");
    await run(3600000 + 1000);
    shop.close();
    assert.deepEqual(net.ids(), ["v0"], "the expired event is not beaconed");
  });

  test("stored events older than one hour are not sent by the next page", async () => {
    const storage = memoryStorage();
    const first = page(network(), storage, { events: "hold" });
    views(first.aisle, 1);
    first.close();
    mock.timers.tick(3600000);
    const net = network();
    const next = page(net, storage);
    await run(5000);
    assert.equal(net.sent.length, 0);
    assert.equal(next.aisle.pending, 0);
  });
});

describe("closing a page", () => {
  test("sends the queue by beacon", async () => {
    const net = network();
    const p = page(net, memoryStorage());
    views(p.aisle, 5);
    p.close();
    assert.deepEqual(net.sent.map((s) => s.how), ["beacon"]);
    assert.deepEqual(net.ids(), range(5));
  });

  test("falls back to fetch with keepalive where there is no beacon", async () => {
    const net = network();
    delete net.sendBeacon;
    const p = page(net, memoryStorage());
    views(p.aisle, 5);
    p.close();
    await settle();
    assert.deepEqual(net.sent.map((s) => s.how), ["fetch"]);
    assert.deepEqual(net.ids(), range(5));
  });

  test("with more than the browser lets a closing page send, keeps the rest for the next page: none lost, none twice", async () => {
    const net = network();
    const storage = memoryStorage();
    const first = page(net, storage);
    const id = (i) => `${"x".repeat(600)}-${i}`;
    views(first.aisle, 300, id);
    first.close();
    assert.ok(net.sent.length >= 1 && net.sent.every((s) => s.how === "beacon"));
    assert.ok(net.ids().length < 300, "the beacons cannot carry it all");

    page(net, storage);
    await run(5000);
    assert.deepEqual(net.short(), range(300, id).map((x) => x.slice(-5)));
  });

  test("counts the request in flight against what the beacon may carry", async () => {
    const net = network();
    let release;
    net.hold = new Promise((r) => (release = r)); // answered after the page closed
    const storage = memoryStorage();
    const first = page(net, storage);
    const id = (i) => `${"y".repeat(600)}-${i}`;
    views(first.aisle, 200, id);
    await run(1000); // about 60 KiB in flight, unanswered
    first.close();
    assert.deepEqual(net.sent.map((s) => s.how), ["fetch", "beacon"]);
    net.hold = null;
    release();
    await settle();
    const second = page(net, storage);
    await run(5000);
    assert.deepEqual([...net.short()].sort(), range(200, id).map((x) => x.slice(-5)).sort());
    assert.equal(second.aisle.pending, 0);
  });

  test("a page hidden again while its beacons are in flight takes back what the browser refuses", async () => {
    const net = network();
    const p = page(net, memoryStorage());
    const id = (i) => `${"z".repeat(600)}-${i}`;
    views(p.aisle, 100, id);
    p.hide(); // about 61 KiB of beacons, still in flight
    p.show();
    views(p.aisle, 20, (i) => id(100 + i));
    p.hide(); // the browser refuses the beacon, and the keepalive fetch after it
    await settle();
    net.arrive();
    p.show();
    await run(3000);
    assert.deepEqual(net.short(), range(120, id).map((x) => x.slice(-5)));
  });

  test("during a 429 wait sends nothing, and the next page keeps waiting Retry-After", async () => {
    const net = network((n) => (n === 1 ? { status: 429, headers: { "Retry-After": "30" } } : { status: 202 }));
    const storage = memoryStorage();
    const first = page(net, storage);
    views(first.aisle, 2);
    await run(1000);
    first.close();
    assert.equal(net.sent.length, 1);
    page(net, storage);
    await run(20000);
    assert.equal(net.sent.length, 1, "still within Retry-After");
    await run(12000);
    assert.equal(net.sent.length, 2);
    assert.deepEqual(net.sent[1].events.map((e) => e.objectID), ["v0", "v1"]);
  });

  test("keeps a purchase in flight for the next page, which the server counts once, and no other event in flight", async () => {
    const net = network();
    net.fetch = () => new Promise(() => {}); // never answered before the page closes
    const storage = memoryStorage();
    const first = page(net, storage);
    first.aisle.view("seen");
    first.aisle.purchase("o-1", [{ objectID: "a" }], "EUR");
    await run(1000);
    first.close();
    const next = network();
    page(next, storage);
    await run(2000);
    assert.deepEqual(next.sent.flatMap((s) => s.events.map((e) => e.type)), ["purchase"]);
  });
});

describe("storage", () => {
  test("full: keeps the newest events that fit, and never an older list the next page would resend", async () => {
    const net = network((n) => ({ status: 429, headers: { "Retry-After": "600" } }));
    const storage = memoryStorage(20000);
    const first = page(net, storage);
    views(first.aisle, 3, (i) => `old${i}`);
    await run(1000);
    first.hide(); // stores the three old views
    assert.match(JSON.stringify(storage.dump()), /old0/);
    views(first.aisle, 400);
    first.close();
    const kept = JSON.stringify(storage.dump());
    assert.ok(kept.length > 1000 && kept.length <= 20000);
    assert.match(kept, /v399\b/, "the newest");
    assert.doesNotMatch(kept, /old0/);
  });

  test("disabled: events are still sent", async () => {
    const net = network();
    Object.defineProperty(globalThis, "sessionStorage", { get: () => { throw new DOMException("denied", "SecurityError"); }, configurable: true });
    try {
      const p = page(net, undefined);
      views(p.aisle, 2);
      await run(1500);
      assert.deepEqual(net.ids(), range(2));
      p.close();
    } finally {
      delete globalThis.sessionStorage;
    }
  });

  test("what a closed page left is sent by the next one once", async () => {
    const net = network((n) => (n === 1 ? { status: 503 } : { status: 202 }));
    const storage = memoryStorage();
    const first = page(net, storage);
    views(first.aisle, 2);
    await run(1100);
    first.close(); // within the backoff: nothing more sent
    const second = page(net, storage);
    await run(5000);
    const third = page(net, storage);
    await run(5000);
    assert.deepEqual(net.sent.slice(1).flatMap((s) => s.events.map((e) => e.objectID)), ["v0", "v1"]);
    assert.equal(second.aisle.pending + third.aisle.pending, 0);
  });
});

describe("consent", () => {
  // heldThenClosed is a page that held three views and closed: they wait in storage.
  const heldThenClosed = (net, storage) => {
    const first = page(net, storage, { events: "hold" });
    views(first.aisle, 3);
    first.close();
  };

  test("hold keeps events across pages until consent(true) sends them once", async () => {
    const net = network();
    const storage = memoryStorage();
    const first = page(net, storage, { events: "hold" });
    views(first.aisle, 3);
    await run(5000);
    first.close();
    assert.equal(net.sent.length, 0);
    const second = page(net, storage, { events: "hold" });
    assert.equal(second.aisle.pending, 3);
    second.aisle.consent(true);
    await run(5000);
    assert.deepEqual(net.ids(), range(3));
    second.close();
    page(net, storage, { events: "hold" });
    await run(5000);
    assert.equal(net.sent.length, 1);
  });

  test("consent(false) drops the held events and every later one, from storage too", async () => {
    const net = network();
    const storage = memoryStorage();
    heldThenClosed(net, storage);
    const second = page(net, storage, { events: "hold" });
    second.aisle.consent(false);
    views(second.aisle, 2);
    assert.equal(second.aisle.pending, 0);
    second.close();
    assert.equal(storage.length, 0);
    await run(5000);
    assert.equal(net.sent.length, 0);
  });

  test("off sends nothing and clears what a page kept", async () => {
    const net = network();
    const storage = memoryStorage();
    heldThenClosed(net, storage);
    const second = page(net, storage, { events: "off" });
    views(second.aisle, 2);
    second.close();
    await run(5000);
    assert.equal(net.sent.length, 0);
    assert.equal(storage.length, 0);
  });
});

describe("what is sent", () => {
  test("only the contract's fields, without cookies", async () => {
    const inits = [];
    const net = network();
    const inner = net.fetch;
    net.fetch = (url, init) => {
      inits.push(init);
      return inner(url, init);
    };
    const { aisle } = page(net, memoryStorage());
    aisle.view("a");
    aisle.click({ objectID: "a", position: 1, query: "red shoe" });
    aisle.click({ objectID: "b", position: 2, list: "together", from: "a" });
    aisle.click({ objectID: "c", position: 3, list: "trending" });
    aisle.addToCart([{ objectID: "a", quantity: 2, price: 10 }], "EUR");
    aisle.purchase("o-1", [{ objectID: "a", quantity: 2, price: 10 }], "EUR");
    await run(1500);
    assert.deepEqual(net.sent[0].events, [
      { type: "view", objectID: "a" },
      { type: "click", objectID: "a", position: 1, query: "red shoe" },
      { type: "click", objectID: "b", position: 2, list: "together", from: "a" },
      { type: "click", objectID: "c", position: 3, list: "trending" },
      { type: "addToCart", items: [{ objectID: "a", quantity: 2, price: 10 }], currency: "EUR" },
      { type: "purchase", orderID: "o-1", items: [{ objectID: "a", quantity: 2, price: 10 }], currency: "EUR" },
    ]);
    assert.ok(inits.every((i) => i.credentials === "omit"));
  });
});

describe("recommendation lists", () => {
  // lists answers GETs with a list and records their URLs.
  function lists() {
    const urls = [];
    const net = network();
    net.fetch = async (url, init) => {
      urls.push(url);
      assert.equal(init.credentials, "omit");
      return { status: 200, ok: true, headers: new Map(), json: async () => ({ hits: [{ objectID: "x", record: {}, score: 1, reason: "content" }] }) };
    };
    return { urls, aisle: page(net, memoryStorage()).aisle };
  }

  test("ask the public list endpoints, with limit, filters as JSON, and trending's facet value", async () => {
    const { urls, aisle } = lists();
    const base = "https://api.test/api/public/indexes/p1/lists";
    assert.deepEqual(await aisle.similar("a/b"), { hits: [{ objectID: "x", record: {}, score: 1, reason: "content" }] });
    await aisle.goesWith("sku 1", { limit: 4, filters: { field: "inStock", eq: true } });
    await aisle.trending({ field: "category", value: "tvs & more" });
    await aisle.boughtTogether("sku-1", { limit: 3 });
    assert.deepEqual(urls, [
      `${base}/similar/a%2Fb`,
      `${base}/goesWith/sku%201?limit=4&filters=%7B%22field%22%3A%22inStock%22%2C%22eq%22%3Atrue%7D`,
      `${base}/trending?field=category&value=tvs+%26+more`,
      `${base}/together/sku-1?limit=3`,
    ]);
  });

  test("ask for suggestions of what is typed, with limit and categories", async () => {
    const { urls, aisle } = lists();
    await aisle.suggest("red sh");
    await aisle.suggest("", { limit: 3, categories: true });
    assert.deepEqual(urls, [
      "https://api.test/api/public/indexes/p1/suggestions?q=red+sh",
      "https://api.test/api/public/indexes/p1/suggestions?q=&limit=3&categories=true",
    ]);
  });

  test("throw the server's error with its status", async () => {
    const net = network();
    net.fetch = async () => ({ status: 400, ok: false, headers: new Map(), json: async () => ({ error: "invalid parameter: limit" }) });
    const { aisle } = page(net, memoryStorage());
    await assert.rejects(aisle.trending({ limit: 99 }), (e) => e.status === 400 && e.message === "invalid parameter: limit");
  });
});

describe("facet value search and multi-search", () => {
  // searches answers POSTs with {} and records their URLs and bodies.
  function searches() {
    const sent = [];
    const net = network();
    net.fetch = async (url, init) => {
      sent.push({ url, method: init.method, contentType: init.headers["Content-Type"], body: JSON.parse(init.body) });
      assert.equal(init.credentials, "omit");
      return { status: 200, ok: true, headers: new Map(), json: async () => ({}) };
    };
    return { sent, aisle: page(net, memoryStorage()).aisle };
  }

  test("post a facet value search to the field's public endpoint", async () => {
    const { sent, aisle } = searches();
    await aisle.searchFacetValues("specs.color/x", { facetQuery: "re", q: "shoe", facetFilters: { brand: ["acme"] } });
    assert.deepEqual(sent, [{ url: "https://api.test/api/public/indexes/p1/facets/specs.color%2Fx/search", method: "POST",
      contentType: "application/json", body: { facetQuery: "re", q: "shoe", facetFilters: { brand: ["acme"] } } }]);
  });

  test("post the queries to the public multi-search, of the client's index unless a query names another", async () => {
    const { sent, aisle } = searches();
    await aisle.multiSearch([{ q: "shoe" }, { publicId: "p2", q: "sock", limit: 1 }]);
    assert.deepEqual(sent, [{ url: "https://api.test/api/public/multi-search", method: "POST", contentType: "application/json",
      body: { queries: [{ publicId: "p1", q: "shoe" }, { publicId: "p2", q: "sock", limit: 1 }] } }]);
  });
});
