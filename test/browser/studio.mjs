// Drives Debian's Chromium through the merchandising studio (/dashboard/studio.html):
// the preview, the history and the synonyms (studio-lib.mjs has the rest).
import { axeViolations, changes, nextPreview, onPhone, previews, shown, signIn, tabUntil, context, run } from "./studio-lib.mjs";

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
    const phone = await onPhone(page, phoneShot);
    Object.assign(out, { phoneOverflow: phone.overflow, phoneWide: phone.wide, phoneAxe: phone.axe });
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

await run(scenarios);
