// Drives Debian's Chromium with playwright-core through one scenario of the browser
// client or the Events page, and prints, as JSON, what the page saw. argv[2] is
// {scenario, ...its arguments}; the Go specs check what reached the server.
import { mkdtempSync, readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { chromium } from "playwright-core";

const args = JSON.parse(process.argv[2]);
// Headless Chromium names itself HeadlessChrome, which the server drops as automation:
// the shopper's browser here says what a desktop Chrome says, on the command line too, so
// that a beacon leaving after its page is gone (no page to override it) says it as well.
const SHOPPER = "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/148.0.0.0 Safari/537.36";
const context = await chromium.launchPersistentContext(mkdtempSync(join(tmpdir(), "aisle-chromium-")), {
  executablePath: process.env.CHROMIUM || "/usr/bin/chromium",
  headless: true,
  userAgent: args.userAgent || SHOPPER,
  args: ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
    "--disable-background-networking", "--disable-component-update", "--disable-sync",
    `--user-agent=${args.userAgent || SHOPPER}`],
});
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const axeSource = readFileSync(createRequire(import.meta.url).resolve("axe-core/axe.min.js"), "utf8");
const pending = (page) => page.evaluate(() => window.aisle.pending);
const settled = (page) => page.waitForFunction(() => window.aisle.pending === 0, null, { timeout: 30000 });

// open loads a shop page and records the requests it makes to the events endpoint.
async function open(url, log) {
  const page = await context.newPage();
  page.on("console", (m) => log.console.push(m.text()));
  page.on("request", (r) => {
    if (!r.url().endsWith("/events")) return;
    log.requests.push({ method: r.method(), type: r.resourceType(), contentType: r.headers()["content-type"] || "" });
  });
  await page.goto(url);
  await page.waitForSelector("body[data-state]", { state: "attached" });
  return page;
}

const scenarios = {
  // Every kind of event, then what the page sent.
  async send({ shop }, out) {
    const page = await open(shop, out);
    await page.evaluate(() => {
      aisle.view("a");
      aisle.view("b");
      aisle.click({ objectID: "a", position: 1, query: "Red Shoe" });
      aisle.click({ objectID: "b", position: 2, list: "together", from: "a" });
      aisle.addToCart([{ objectID: "a", quantity: 2, price: 10 }], "EUR");
      aisle.purchase("order-1", [{ objectID: "a", quantity: 2, price: 10 }, { objectID: "b", price: 5 }], "EUR");
    });
    await settled(page);
  },

  // Events queued just before the page closes or navigates away go out by beacon.
  async close({ shop, away }, out) {
    let page = await open(shop, out);
    await page.evaluate(() => ["c1", "c2", "c3", "c4", "c5"].forEach((id) => aisle.view(id)));
    out.closedWith = await pending(page);
    await page.close({ runBeforeUnload: true });
    page = await open(shop, out);
    await page.evaluate(() => ["n1", "n2", "n3"].forEach((id) => aisle.view(id)));
    out.navigatedWith = await pending(page);
    await page.goto(away);
    await sleep(1500); // the beacons leave while the browser still runs
  },

  // More events queued at the close than a page may hand to beacons (64 KiB): what does
  // not fit waits in sessionStorage for the next page. Multibyte text checks that requests
  // are measured in bytes.
  async overflow({ shop }, out) {
    const page = await open(shop, out);
    await page.evaluate(() => {
      for (let i = 0; i < 300; i++) aisle.view(`${"商品".repeat(100)}-${i}`);
    });
    out.closedWith = await pending(page);
    await page.goto(shop);
    await page.waitForSelector("body[data-state]", { state: "attached" });
    await settled(page);
  },

  // Two tabs of the shop at once: each sends its own events, once.
  async tabs({ shop }, out) {
    const [a, b] = [await open(shop, out), await open(shop, out)];
    await a.evaluate(() => ["ta1", "ta2", "ta3"].forEach((id) => aisle.view(id)));
    await b.evaluate(() => ["tb1", "tb2", "tb3"].forEach((id) => aisle.view(id)));
    await a.goto(shop);
    await a.waitForSelector("body[data-state]", { state: "attached" });
    await b.evaluate(() => aisle.view("tb4"));
    await b.close({ runBeforeUnload: true });
    await a.evaluate(() => aisle.view("ta4"));
    await settled(a);
    await sleep(1500);
  },

  // Bought together through the public lists endpoint.
  async together({ shop, objectID }, out) {
    const page = await open(shop, out);
    out.together = await page.evaluate((id) => aisle.boughtTogether(id, { limit: 3 }).then((l) => JSON.stringify(l), (e) => `error ${e.status}: ${e.message}`), objectID);
  },

  // Events held until consent, across a navigation; consent(false) drops them.
  async hold({ shop }, out) {
    const page = await open(shop, out);
    await page.evaluate(() => ["h1", "h2", "h3"].forEach((id) => aisle.view(id)));
    await sleep(2500);
    out.heldBefore = await pending(page);
    out.sentBeforeConsent = out.requests.length;
    await page.goto(shop);
    await page.waitForSelector("body[data-state]", { state: "attached" });
    out.heldAfterNavigation = await pending(page);
    out.consentAt = Date.now();
    await page.evaluate(() => aisle.consent(true));
    await settled(page);
    await page.goto(shop);
    await page.waitForSelector("body[data-state]", { state: "attached" });
    out.heldAfterConsent = await pending(page);
    await page.evaluate(() => ["d1", "d2"].forEach((id) => aisle.view(id)));
    out.heldBeforeRefusal = await pending(page);
    await page.evaluate(() => {
      aisle.consent(false);
      aisle.view("d3");
    });
    out.heldAfterRefusal = await pending(page);
    await sleep(2500);
    await page.goto(shop);
    await page.waitForSelector("body[data-state]", { state: "attached" });
    out.heldOnNextPage = await pending(page);
  },

  // The server answers 429 and 503 first (the Go proxy decides); the page retries.
  async retry({ shop }, out) {
    const page = await open(shop, out);
    await page.evaluate(() => ["r1", "r2", "r3"].forEach((id) => aisle.view(id)));
    await settled(page);
    await sleep(3000); // long enough for a second send, which must not happen
  },

  // A page on an origin the index does not allow: the browser refuses the answers.
  async other({ shop, api, publicId }, out) {
    const page = await open(shop, out);
    out.events = await page.evaluate(async ({ api, publicId }) => {
      const res = fetch(`${api}/api/public/indexes/${publicId}/events`, {
        method: "POST", headers: { "Content-Type": "text/plain" }, body: '{"events":[{"type":"view","objectID":"x"}]}',
      });
      return res.then((r) => `status ${r.status}`, (e) => String(e));
    }, { api, publicId });
    out.search = await page.evaluate(() => aisle.search({ q: "shoe" }).then(() => "answered", (e) => String(e)));
    await page.evaluate(() => aisle.view("refused-1"));
    await sleep(2500);
  },

  // The time the page spends in the client per 100 events: queueing them, storing the
  // queue, and building and starting the request that sends them.
  async bench({ shop, rounds }, out) {
    const page = await open(shop, out);
    out.perHundred = [];
    for (let i = 0; i < rounds; i++) {
      out.perHundred.push(await page.evaluate(() => {
        const t0 = performance.now();
        for (let j = 0; j < 100; j++) aisle.view(`bench-${j}`);
        aisle.tick();
        return performance.now() - t0;
      }));
      await settled(page);
    }
  },

  // The Events page: opened with a key from the keyboard, checked against the stats,
  // then refreshed by itself after new events arrive.
  async dashboard({ url, key, screenshot, phoneShot, sendMore }, out) {
    const page = await context.newPage();
    page.on("console", (m) => out.console.push(m.text()));
    page.on("dialog", (d) => {
      out.dialogs = (out.dialogs || 0) + 1;
      d.dismiss();
    });
    await page.goto(url);
    out.tabsToKey = await tabTo(page, "key");
    await page.keyboard.type(key);
    await page.keyboard.press("Enter");
    await page.waitForSelector("body[data-state=ready]", { timeout: 30000 });
    out.unlabelled = await page.$$eval("input, select", (els) => els.filter((e) => !e.labels.length).map((e) => e.id));
    // The key stays for this tab: a reload opens the figures again, and Tab walks them.
    await page.reload();
    await page.waitForSelector("body[data-state=ready]", { timeout: 30000 });
    out.tabOrder = await tabOrder(page, 14); // a date field takes a Tab per part
    await page.evaluate(axeSource);
    out.axe = await axeViolations(page);
    out.first = await figures(page);
    await page.screenshot({ path: screenshot, fullPage: true });
    out.stored = await page.evaluate(() => ({ session: Object.keys(sessionStorage), local: Object.keys(localStorage) }));
    out.xss = await page.evaluate(() => window.__xss === undefined ? "" : String(window.__xss));
    const res = await fetch(sendMore.url, { method: "POST", headers: { "Content-Type": sendMore.contentType }, body: sendMore.body });
    out.sentMore = res.status;
    const before = out.first.figures["totals.view"];
    await page.waitForFunction((b) => document.querySelector('[data-figure="totals.view"]').dataset.value !== b, before, { timeout: 150000 });
    out.second = await figures(page);
    await page.setViewportSize({ width: 390, height: 844 });
    await sleep(300);
    out.phoneOverflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    out.phoneAxe = await axeViolations(page);
    await page.screenshot({ path: phoneShot, fullPage: true });
  },
};

// axeViolations runs axe-core (loaded in page) and names each violation with its elements.
const axeViolations = (page) =>
  page.evaluate(async () => (await axe.run()).violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(" ")).join(", ")}`));

// tabTo presses Tab from the top of the page until the element id has the focus, and
// returns how many presses it took (-1: never).
async function tabTo(page, id) {
  for (let i = 1; i <= 10; i++) {
    await page.keyboard.press("Tab");
    if (await page.evaluate((id) => document.activeElement && document.activeElement.id === id, id)) return i;
  }
  return -1;
}

// tabOrder returns the ids of the next n elements Tab gives the focus to.
async function tabOrder(page, n) {
  const ids = [];
  for (let i = 0; i < n; i++) {
    await page.keyboard.press("Tab");
    ids.push(await page.evaluate(() => document.activeElement.id || document.activeElement.tagName.toLowerCase()));
  }
  return ids;
}

// figures reads what the Events page shows: each figure's raw value, the product names,
// the data each drawn chart holds, and how often the page refreshed.
function figures(page) {
  return page.evaluate(() => ({
    figures: Object.fromEntries([...document.querySelectorAll("[data-figure]")].map((e) => [e.dataset.figure, e.dataset.value])),
    names: [...document.querySelectorAll("[data-name]")].map((e) => e.textContent),
    lists: Object.fromEntries([...document.querySelectorAll("table[data-list]")].map((t) =>
      [t.dataset.list, [...t.querySelectorAll("[data-name]")].map((e) => e.textContent)])),
    revenue: [...document.querySelectorAll('tr[data-row="revenue"]')].map((tr) => [tr.cells[0].textContent, tr.cells[1].dataset.value]),
    charts: Object.fromEntries(["view", "click", "addToCart", "purchase", "cancel"].map((k) => {
      const c = document.getElementById(`chart-${k}`);
      const chart = c && c.width > 0 && window.Chart && Chart.getChart(c);
      return [k, chart ? chart.data.datasets[0].data : null];
    })),
    searchChart: (() => {
      const c = document.getElementById("chart-searches");
      const chart = c && c.width > 0 && window.Chart && Chart.getChart(c);
      return chart ? chart.data.datasets[0].data : null;
    })(),
    searchRows: Object.fromEntries(["search-top", "search-none", "search-unclicked"].map((name) =>
      [name, [...document.querySelectorAll(`tr[data-row="${name}"]`)].map((tr) => [...tr.cells].map((td) => td.dataset.value || td.textContent))])),
    studioLinks: [...document.querySelectorAll("a[data-studio]")].map((a) => a.getAttribute("href")),
    refreshes: Number(document.body.dataset.refreshes),
  }));
}

const out = { requests: [], console: [] };
try {
  await scenarios[args.scenario](args, out);
} finally {
  await context.close();
}
process.stdout.write(JSON.stringify(out));
