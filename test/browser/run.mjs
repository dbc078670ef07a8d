// Drives Debian's Chromium with playwright-core: opens each page given in argv[2] (a
// JSON list of {name, url}) and prints, as JSON, what each rendered: its hits (the
// text and HTML of each li.hit) or its error.
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { chromium } from "playwright-core";

const pages = JSON.parse(process.argv[2]);
const context = await chromium.launchPersistentContext(mkdtempSync(join(tmpdir(), "aisle-chromium-")), {
  executablePath: process.env.CHROMIUM || "/usr/bin/chromium",
  headless: true,
  args: ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
    "--disable-background-networking", "--disable-component-update", "--disable-sync"],
});
const out = {};
try {
  for (const { name, url } of pages) {
    const page = await context.newPage();
    const console = [];
    page.on("console", (m) => console.push(m.text()));
    await page.goto(url);
    await page.waitForSelector("body[data-state]", { state: "attached", timeout: 15000 });
    out[name] = {
      state: await page.getAttribute("body", "data-state"),
      error: await page.getAttribute("body", "data-error"),
      hits: await page.$$eval("li.hit", (els) => els.map((e) => ({ text: e.textContent, html: e.innerHTML }))),
      console,
    };
    await page.close();
  }
} finally {
  await context.close();
}
process.stdout.write(JSON.stringify(out));
