// Drives Debian's Chromium with playwright-core through the merchandising studio
// (/dashboard/studio.html) and prints, as JSON, what the page showed at each step.
// argv[2] is {scenario, ...its arguments}; the Go specs compare it with the API's answers.
import { mkdtempSync, readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { chromium } from "playwright-core";

const args = JSON.parse(process.argv[2]);
const context = await chromium.launchPersistentContext(mkdtempSync(join(tmpdir(), "aisle-chromium-")), {
  executablePath: process.env.CHROMIUM || "/usr/bin/chromium",
  headless: true,
  viewport: { width: 1280, height: 900 },
  args: ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
    "--disable-background-networking", "--disable-component-update", "--disable-sync"],
});
const axeSource = readFileSync(createRequire(import.meta.url).resolve("axe-core/axe.min.js"), "utf8");
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

// axeViolations runs axe-core and names each violation with its elements.
async function axeViolations(page) {
  if (!(await page.evaluate(() => typeof axe !== "undefined"))) await page.evaluate(axeSource);
  return page.evaluate(async () => (await axe.run()).violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(" ")).join(", ")}`));
}

// signIn types the key from the keyboard alone: Tab to the key field, type, Enter.
async function signIn(page, key) {
  let tabs = -1;
  for (let i = 1; i <= 10; i++) {
    await page.keyboard.press("Tab");
    if (await page.evaluate(() => document.activeElement && document.activeElement.id === "key")) {
      tabs = i;
      break;
    }
  }
  await page.keyboard.type(key);
  await page.keyboard.press("Enter");
  await page.waitForSelector("body[data-state=ready]", { timeout: 30000 });
  await page.waitForFunction(() => document.activeElement && document.activeElement.id === "q", null, { timeout: 10000 });
  return tabs;
}

// previews is how many previews the page has shown; nextPreview waits for one more.
const previews = (page) => page.evaluate(() => Number(document.body.dataset.previews || 0));
const nextPreview = (page, before) =>
  page.waitForFunction((b) => Number(document.body.dataset.previews || 0) > b, before, { timeout: 15000 });

// changes is how many edits the page has shown the effects of (preview and history).
const changes = (page) => page.evaluate(() => Number(document.body.dataset.changes || 0));

// shown reads what the preview and the histories show.
function shown(page) {
  return page.evaluate(() => ({
    hits: [...document.querySelectorAll("#hits li.hit")].map((li) => ({
      objectID: li.dataset.objectId,
      position: Number(li.dataset.position),
      name: li.querySelector("[data-name]").textContent,
      pinned: !!li.querySelector("[data-pinned]"),
      criteria: Object.fromEntries([...li.querySelectorAll("[data-criterion]")].map((d) => [d.dataset.criterion, d.textContent])),
    })),
    empty: !!document.querySelector("#hits [data-empty]"),
    rules: [...document.querySelectorAll('[data-fact="rules"] .tag')].map((e) => e.textContent),
    ignored: [...document.querySelectorAll('[data-fact="ignored"] .tag')].map((e) => e.textContent),
    banners: [...document.querySelectorAll("[data-banner]")].map((b) => ({ rule: b.dataset.banner, text: b.querySelector("pre").textContent })),
    history: Object.fromEntries(["config", "rules"].map((k) => [k,
      [...document.querySelectorAll(`tr[data-row="${k}-history"]`)].map((tr) => Number(tr.cells[0].dataset.value))])),
    restores: [...document.querySelectorAll("[data-restore]")].map((b) => b.dataset.restore),
    status: document.getElementById("status").textContent,
    error: document.getElementById("error").hidden ? "" : document.getElementById("error").textContent,
    unlabelled: [...document.querySelectorAll("input, select")].filter((e) => !e.labels.length).map((e) => e.id),
  }));
}

// tabUntil presses Tab until the focused element matches selector (at most n presses).
async function tabUntil(page, selector, n = 40) {
  for (let i = 0; i < n; i++) {
    await page.keyboard.press("Tab");
    if (await page.evaluate((s) => document.activeElement && document.activeElement.matches(s), selector)) return true;
  }
  return false;
}

const scenarios = {
  // A search key: the preview, by keyboard, with and without rules; nothing to edit.
  async readOnly({ url, key, query, shot }, out) {
    const page = await context.newPage();
    page.on("console", (m) => out.console.push(m.text()));
    await page.goto(url);
    out.tabsToKey = await signIn(page, key);
    out.first = await shown(page);
    out.axe = await axeViolations(page);
    await page.screenshot({ path: shot, fullPage: true });
    // The query field has the focus: a new query is typed and sent with Enter.
    let before = await previews(page);
    await page.keyboard.press("Control+A");
    await page.keyboard.type(query);
    await page.keyboard.press("Enter");
    await nextPreview(page, before);
    out.typed = await shown(page);
    before = await previews(page);
    out.reachedRules = await tabUntil(page, "#rules-on", 6);
    await page.keyboard.press("Space");
    await nextPreview(page, before);
    out.withoutRules = await shown(page);
  },

  // A write key: the histories with their restore buttons; one restored by keyboard.
  async edit({ url, key, restore, shot, phoneShot }, out) {
    const page = await context.newPage();
    page.on("console", (m) => out.console.push(m.text()));
    await page.goto(url);
    await signIn(page, key);
    out.first = await shown(page);
    out.axe = await axeViolations(page);
    out.reachedRestore = await tabUntil(page, `[data-restore="${restore}"]`);
    if (!out.reachedRestore) return;
    const before = await previews(page);
    await page.keyboard.press("Enter");
    await page.waitForFunction((b) => Number(document.body.dataset.previews || 0) > b ||
      !document.getElementById("error").hidden, before, { timeout: 15000 });
    out.focusAfterRestore = await page.evaluate(() => document.activeElement.id);
    out.restored = await shown(page);
    await page.screenshot({ path: shot, fullPage: true });
    await page.setViewportSize({ width: 390, height: 844 });
    await sleep(300);
    out.phoneOverflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    // What sticks out, for the spec's failure message.
    out.phoneWide = await page.evaluate(() => [...document.querySelectorAll("body *")]
      .filter((e) => e.getBoundingClientRect().right > window.innerWidth + 1 && !e.closest(".scroll"))
      .slice(0, 8).map((e) => `${e.tagName.toLowerCase()}#${e.id}.${e.className}`));
    out.phoneAxe = await axeViolations(page);
    await page.screenshot({ path: phoneShot, fullPage: true });
  },

  // A write key: a synonym and a stop word typed into the draft, saved and previewed,
  // then undone; each step from the keyboard.
  async words({ url, key, synonym, stopWord, configPath, shot }, out) {
    const page = await context.newPage();
    page.on("console", (m) => out.console.push(m.text()));
    await page.goto(url);
    await signIn(page, key);
    out.first = await shown(page);
    out.reachedSynonyms = await tabUntil(page, "#synonyms");
    await page.keyboard.press("Control+End");
    await page.keyboard.press("Enter");
    await page.keyboard.type(synonym);
    out.reachedStopWords = await tabUntil(page, "#stop-words", 3);
    await page.keyboard.press("End");
    await page.keyboard.type(stopWord);
    out.reachedSave = await tabUntil(page, "#synonyms-save", 3);
    let before = await changes(page);
    await page.keyboard.press("Enter");
    await page.waitForFunction((b) => Number(document.body.dataset.changes || 0) > b ||
      !document.getElementById("error").hidden, before, { timeout: 15000 });
    out.saved = await shown(page);
    out.savedConfig = await page.evaluate(async ([path, key]) =>
      (await fetch(path, { headers: { Authorization: `Bearer ${key}` } })).json(), [configPath, key]);
    out.axe = await axeViolations(page);
    await page.screenshot({ path: shot, fullPage: true });
    out.reachedUndo = await tabUntil(page, "#synonyms-undo", 2);
    before = await changes(page);
    await page.keyboard.press("Enter");
    await page.waitForFunction((b) => Number(document.body.dataset.changes || 0) > b ||
      !document.getElementById("error").hidden, before, { timeout: 15000 });
    out.undone = await shown(page);
    out.synonymsAfterUndo = await page.evaluate(() => document.getElementById("synonyms").value);
  },

};

const out = { console: [] };
try {
  await scenarios[args.scenario](args, out);
} finally {
  await context.close();
}
process.stdout.write(JSON.stringify(out));
