// Drives Debian's Chromium through the studio opened from a failing search of the Events
// page: the fixes offered, a one-way synonym and a synonym added from the keyboard (each
// undone), and a rule started on the query.
import { axeViolations, changes, onPhone, openStudio, readAPI, run, shown, tabUntil } from "./studio-lib.mjs";

function fixShown(page) {
  return page.evaluate(() => ({
    shown: !document.getElementById("fix").hidden,
    query: document.getElementById("fix-query").textContent,
    why: document.getElementById("fix-why").textContent,
    ruleId: document.getElementById("rule-id").value,
    pattern: document.getElementById("rule-pattern-1").value,
    anchoring: document.getElementById("rule-anchoring-1").value,
    replace: document.getElementById("rule-replace").value,
    with: [...document.querySelectorAll("#rule-with li.hit")].map((li) => li.dataset.objectId),
    compareShown: !document.getElementById("rule-compare").hidden,
    focus: document.activeElement.id,
  }));
}

// changedBy runs act and waits for the studio to show its effects (or an error).
async function changedBy(page, act) {
  const before = await changes(page);
  await act();
  await page.waitForFunction((b) => Number(document.body.dataset.changes || 0) > b || !document.getElementById("error").hidden, before, { timeout: 15000 });
}

const scenarios = {
  async fix({ url, key, word, configPath, shot }, out) {
    const { page } = await openStudio(url, key, out);
    out.first = { fix: await fixShown(page), preview: await shown(page) };
    out.axe = await axeViolations(page);
    await page.screenshot({ path: shot, fullPage: true });
    out.phone = await onPhone(page);
    await page.focus("#fix-word");
    await page.keyboard.type(word);
    out.reachedOneWay = await tabUntil(page, "#fix-oneway", 3);
    await changedBy(page, () => page.keyboard.press("Enter"));
    out.oneWay = { preview: await shown(page), synonyms: (await readAPI(page, configPath, key)).synonyms };
    await changedBy(page, () => page.click("#synonyms-undo"));
    out.undone = await shown(page);
    await page.focus("#fix-word");
    await changedBy(page, () => page.keyboard.press("Enter"));
    out.twoWay = { preview: await shown(page), synonyms: (await readAPI(page, configPath, key)).synonyms };
    await changedBy(page, () => page.click("#synonyms-undo"));
    const tries = await page.evaluate(() => Number(document.body.dataset.ruleTries || 0));
    await page.click("#fix-rule");
    await page.waitForFunction((b) => Number(document.body.dataset.ruleTries || 0) > b || !document.getElementById("error").hidden, tries, { timeout: 15000 });
    out.rule = await fixShown(page);
    out.error = await page.evaluate(() => (document.getElementById("error").hidden ? "" : document.getElementById("error").textContent));
  },

  async readOnly({ url, key }, out) {
    const { page } = await openStudio(url, key, out);
    out.first = { fix: await fixShown(page), preview: await shown(page) };
  },
};

await run(scenarios);
