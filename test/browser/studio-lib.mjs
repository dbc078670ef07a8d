// What the studio's scripts share: Chromium driven by playwright-core, axe-core, the
// keyboard login, and reading what the studio shows. Each script's argv[2] is {scenario,
// ...its arguments}; run prints, as JSON, what its scenario saw, for the Go specs.
import { mkdtempSync, readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { chromium } from "playwright-core";

export const context = await chromium.launchPersistentContext(mkdtempSync(join(tmpdir(), "aisle-chromium-")), {
  executablePath: process.env.CHROMIUM || "/usr/bin/chromium",
  headless: true,
  viewport: { width: 1280, height: 900 },
  args: ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
    "--disable-background-networking", "--disable-component-update", "--disable-sync"],
});
const axeSource = readFileSync(createRequire(import.meta.url).resolve("axe-core/axe.min.js"), "utf8");
export const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

// axeViolations runs axe-core and names each violation with its elements.
export async function axeViolations(page) {
  if (!(await page.evaluate(() => typeof axe !== "undefined"))) await page.evaluate(axeSource);
  return page.evaluate(async () => (await axe.run()).violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(" ")).join(", ")}`));
}

// signIn types the key from the keyboard alone: Tab to the key field, type, Enter.
export async function signIn(page, key) {
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
export const previews = (page) => page.evaluate(() => Number(document.body.dataset.previews || 0));
export const nextPreview = (page, before) =>
  page.waitForFunction((b) => Number(document.body.dataset.previews || 0) > b, before, { timeout: 15000 });

// counter reads a body[data-…] counter; after waits for it to pass before, or an error.
export const counter = (page, name) => page.evaluate((n) => Number(document.body.dataset[n] || 0), name);
export async function after(page, name, before) {
  await page.waitForFunction(([n, b]) => Number(document.body.dataset[n] || 0) > b || !document.getElementById("error").hidden,
    [name, before], { timeout: 15000 });
}

// changes is how many edits the page has shown the effects of (preview and history).
export const changes = (page) => page.evaluate(() => Number(document.body.dataset.changes || 0));

// shown reads what the preview and the histories show.
export function shown(page) {
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
export async function tabUntil(page, selector, n = 80) {
  for (let i = 0; i < n; i++) {
    await page.keyboard.press("Tab");
    if (await page.evaluate((s) => document.activeElement && document.activeElement.matches(s), selector)) return true;
  }
  return false;
}

// press reaches selector by Tab (at most n presses) and presses Enter on it.
export async function press(page, selector, n = 120) {
  if (!(await tabUntil(page, selector, n))) throw new Error(`Tab never reached ${selector}`);
  await page.keyboard.press("Enter");
}

// enter focuses selector and presses Enter on it; it says where the focus went after
// and what the status line said (focusAndStatus).
export async function enter(page, selector) {
  await page.focus(selector);
  await page.keyboard.press("Enter");
  return focusAndStatus(page);
}

// focusAndStatus is the focused element's id and the status line's text.
export const focusAndStatus = (page) =>
  page.evaluate(() => ({ focus: document.activeElement.id, status: document.getElementById("status").textContent }));

// retype replaces a field's text from the keyboard.
export async function retype(page, selector, text) {
  await page.focus(selector);
  await page.keyboard.press("Control+A");
  await page.keyboard.type(text);
}

// run runs the scenario argv[2] names and prints what it saw, closing Chromium after.
export async function run(scenarios) {
  const args = JSON.parse(process.argv[2]);
  const out = { console: [] };
  try {
    await scenarios[args.scenario](args, out);
  } finally {
    await context.close();
  }
  process.stdout.write(JSON.stringify(out));
}

// openStudio opens url in a new page, logged in with key from the keyboard; console
// messages go to out.console. It returns the page and the Tab presses to the key field.
export async function openStudio(url, key, out) {
  const page = await context.newPage();
  page.on("console", (m) => out.console.push(m.text()));
  await page.goto(url);
  const tabs = await signIn(page, key);
  return { page, tabs };
}

// readAPI is the JSON answer of GET path with key, asked from the page (as its own calls are).
export const readAPI = (page, path, key) =>
  page.evaluate(async ([p, k]) => (await fetch(p, { headers: { Authorization: `Bearer ${k}` } })).json(), [path, key]);

// onPhone shows page on a phone's screen and says whether it fits: how much wider than
// the screen it is, what sticks out (outside sideways-scrolling boxes), axe's violations;
// with shot, a screenshot. The desktop's size is put back after.
export async function onPhone(page, shot) {
  const desktop = page.viewportSize();
  await page.setViewportSize({ width: 390, height: 844 });
  await sleep(300);
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  const wide = await page.evaluate(() => [...document.querySelectorAll("body *")]
    .filter((e) => e.getBoundingClientRect().right > window.innerWidth + 1 && !e.closest(".scroll"))
    .slice(0, 8).map((e) => `${e.tagName.toLowerCase()}#${e.id}.${e.className}`));
  const axe = await axeViolations(page);
  if (shot) await page.screenshot({ path: shot, fullPage: true });
  await page.setViewportSize(desktop);
  return { overflow, wide, axe };
}
