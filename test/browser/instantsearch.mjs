// Drives web/examples' search page (instantsearch.js widgets on Aisle's adapter) in
// Debian's Chromium as a shopper would: argv[2] is JSON {url, query, brands: [two
// brands], facetQuery}. Prints, as JSON, what the widgets showed after each step.
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { chromium } from "playwright-core";

const { url, query, brands, facetQuery, screenshot } = JSON.parse(process.argv[2]);
const context = await chromium.launchPersistentContext(mkdtempSync(join(tmpdir(), "aisle-chromium-")), {
  executablePath: process.env.CHROMIUM || "/usr/bin/chromium",
  headless: true,
  args: ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
    "--disable-background-networking", "--disable-component-update", "--disable-sync"],
});

// shown reads what the widgets show.
const shown = () => {
  const texts = (sel) => [...document.querySelectorAll(sel)].map((e) => e.textContent.trim());
  const items = (sel) => [...document.querySelectorAll(`${sel} .ais-RefinementList-item`)].map((li) => ({
    label: li.querySelector(".ais-RefinementList-labelText").textContent,
    html: li.querySelector(".ais-RefinementList-labelText").innerHTML,
    count: Number(li.querySelector(".ais-RefinementList-count").textContent),
    checked: li.querySelector("input").checked,
  }));
  return {
    // The visible text only: the widget also keeps a hidden live region for screen
    // readers, which announces the count 1.4 s after it changes (the previous step's, at
    // times, when read).
    stats: texts("#stats .ais-Stats-text")[0] || "",
    banners: texts("#banner .banner"),
    hits: [...document.querySelectorAll("#hits .card")].map((c) => ({
      objectID: c.dataset.objectId,
      group: c.dataset.group,
      nameHTML: c.querySelector(".name").innerHTML.replace(/<!--.*?-->/g, ""),
      brand: c.querySelector(".brand").textContent,
      pinned: !!c.querySelector(".pinned"),
      swatches: [...c.querySelectorAll(".swatch")].map((s) => s.dataset.objectId),
    })),
    brand: items("#brand"),
    color: items("#color"),
    slider: [...document.querySelectorAll("#price [role=slider]")].map((h) => ({
      min: Number(h.getAttribute("aria-valuemin")), max: Number(h.getAttribute("aria-valuemax")), now: Number(h.getAttribute("aria-valuenow")),
    })),
    pages: texts("#pagination .ais-Pagination-item--page"),
    page: texts("#pagination .ais-Pagination-item--selected")[0] || "",
    errors: window.__errors,
  };
};

const out = { console: [] };
try {
  const page = await context.newPage();
  page.on("console", (m) => out.console.push(m.text()));
  page.on("pageerror", (e) => out.console.push(String(e)));
  await page.goto(url);
  await page.waitForFunction(() => window.search && window.search.started);
  // Counts the renders after an answer: a step is done when one follows it.
  await page.evaluate(() => {
    window.__settled = 0;
    window.__errors = [];
    window.search.on("render", () => window.search.status === "idle" && window.__settled++);
    window.search.on("error", (e) => window.__errors.push(String(e.error && e.error.message)));
  });
  const step = async (act) => {
    const before = await page.evaluate(() => window.__settled);
    await act();
    await page.waitForFunction((n) => window.__settled > n && window.search.status === "idle", before, { timeout: 15000 });
    return page.evaluate(shown);
  };
  const brandBox = (name) => page.locator("#brand .ais-RefinementList-label", { hasText: name }).locator("input");
  const next = () => page.locator("#pagination .ais-Pagination-item--nextPage a").click();

  out.searched = await step(() => page.locator("#searchbox input").fill(query));
  if (screenshot) await page.screenshot({ path: screenshot, fullPage: true });
  out.page2 = await step(next);
  out.page3 = await step(next);
  out.oneBrand = await step(() => brandBox(brands[0]).check());
  out.twoBrands = await step(() => brandBox(brands[1]).check());
  await page.locator("#brand .ais-SearchBox-input").fill(facetQuery);
  await page.waitForFunction(() => document.querySelector("#brand .ais-RefinementList-labelText mark"), null, { timeout: 15000 });
  out.facetSearch = await page.evaluate(shown);
} finally {
  await context.close();
}
process.stdout.write(JSON.stringify(out));
