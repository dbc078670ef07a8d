// Drives Debian's Chromium through web/examples/react (React InstantSearch's
// DynamicWidgets on Aisle's adapter): for each facet ordering of argv[2].orderings, sets
// it with PUT /config, opens the page again and reads the facets it shows, in order,
// with their values. Prints what it read as JSON.
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { chromium } from "playwright-core";

const { url, configPath, apiBase, writeKey, orderings } = JSON.parse(process.argv[2]);
const context = await chromium.launchPersistentContext(mkdtempSync(join(tmpdir(), "aisle-chromium-")), {
  executablePath: process.env.CHROMIUM || "/usr/bin/chromium",
  headless: true,
  args: ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
    "--disable-background-networking", "--disable-component-update", "--disable-sync"],
});

// putOrdering sets the index's facetOrdering (null: none), as the studio saves it.
async function putOrdering(ordering) {
  const headers = { Authorization: `Bearer ${writeKey}`, "Content-Type": "application/json" };
  const cfg = await (await fetch(apiBase + configPath, { headers })).json();
  delete cfg.rebuild;
  if (ordering) cfg.facetOrdering = ordering;
  else delete cfg.facetOrdering;
  const res = await fetch(apiBase + configPath, { method: "PUT", headers, body: JSON.stringify(cfg) });
  if (!res.ok) throw new Error(`PUT /config: ${res.status} ${await res.text()}`);
}

// facets reads the page once InstantSearch has answered with hits.
async function facets(page) {
  await page.waitForSelector("body[data-state=idle] .card", { timeout: 15000 });
  return page.evaluate(() => [...document.querySelectorAll("[data-facet]")].map((f) => ({
    facet: f.dataset.facet,
    values: [...f.querySelectorAll(".ais-RefinementList-labelText")].map((l) => l.textContent),
  })));
}

const out = { steps: [], console: [] };
try {
  const page = await context.newPage();
  page.on("console", (m) => out.console.push(m.text()));
  page.on("pageerror", (e) => out.console.push(String(e)));
  for (const ordering of orderings) {
    await putOrdering(ordering);
    await page.goto(url);
    out.steps.push(await facets(page));
  }
} finally {
  await context.close();
}
process.stdout.write(JSON.stringify(out));
