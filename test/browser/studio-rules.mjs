// Drives Debian's Chromium through the studio's rules editor: a rule drafted, tried
// (the page with it and without it), moved by drag and drop and from the keyboard,
// saved, edited and deleted; and the editor read-only with a search key.
import { after, axeViolations, counter, onPhone, openStudio, readAPI, run, shown } from "./studio-lib.mjs";


// editor reads what the rules editor shows: the list, the form's fields and both pages.
function editor(page) {
  return page.evaluate(() => {
    const list = (id) => [...document.querySelectorAll(`#${id} li.hit`)].map((li) => ({
      objectID: li.dataset.objectId, pinned: !!li.querySelector("[data-pinned]"), draggable: li.draggable }));
    const value = (id) => (document.getElementById(id) || { value: null }).value;
    return {
      rules: [...document.querySelectorAll('tr[data-row="rules"] [data-rule]')].map((e) => e.dataset.rule),
      edits: [...document.querySelectorAll("[data-edit]")].map((b) => b.dataset.edit),
      deletes: [...document.querySelectorAll("[data-delete]")].map((b) => b.dataset.delete),
      formShown: !document.getElementById("rule-form").hidden,
      fields: Object.fromEntries(["rule-id", "rule-pattern-1", "rule-pins", "rule-hide", "rule-boost-1", "rule-banner", "rule-context-1"]
        .map((id) => [id, value(id)])),
      notes: [...document.querySelectorAll("#rule-notes li")].map((li) => li.textContent),
      compareShown: !document.getElementById("rule-compare").hidden,
      with: list("rule-with"),
      without: list("rule-without"),
      withRules: document.getElementById("rule-with-summary").textContent,
      withoutRules: document.getElementById("rule-without-summary").textContent,
    };
  });
}

// tryDraft submits the form (Try) and waits for the comparison.
async function tryDraft(page, act) {
  const before = await counter(page, "ruleTries");
  await act();
  await after(page, "ruleTries", before);
}

const scenarios = {
  // A write key: a new rule drafted on the preview's query, moved, tried, saved, edited
  // and deleted.
  async edit({ url, key, id, context, boost, banner, from, until, rulePath, newBanner, shot, phoneShot }, out) {
    const { page } = await openStudio(url, key, out);
    out.first = await editor(page);
    await page.click("#rule-new");
    out.focusAfterNew = await page.evaluate(() => document.activeElement.id);
    await page.keyboard.type(id);
    await page.click("#rule-add-window");
    await page.click("#rule-add-boost");
    for (const [field, v] of [["#rule-context-1", context], ["#contexts", context], ["#rule-boost-1", boost], ["#rule-banner", banner],
      ["#rule-from-1", from], ["#rule-until-1", until]]) await page.fill(field, v);
    await tryDraft(page, () => page.click("#rule-try"));
    out.tried = await editor(page);
    out.savedAfterTry = await page.evaluate(async ([p, k]) => (await fetch(p, { headers: { Authorization: `Bearer ${k}` } })).status, [rulePath, key]);

    // The last product of the page without the rule, dragged onto the first place.
    const last = out.tried.without[out.tried.without.length - 1].objectID;
    out.dragged = last;
    await tryDraft(page, () => page.dragAndDrop(`#rule-without li[data-object-id="${last}"]`, "#rule-with li.hit:first-child"));
    out.afterDrag = await editor(page);
    // The second product of the page with the rule hidden, from the keyboard.
    const second = out.afterDrag.with[1].objectID;
    out.hidden = second;
    await page.focus(`#rule-with li[data-object-id="${second}"] [data-move=hide]`);
    await tryDraft(page, () => page.keyboard.press("Enter"));
    out.afterHide = await editor(page);
    out.axe = await axeViolations(page);
    await page.screenshot({ path: shot, fullPage: true });
    out.phone = await onPhone(page, phoneShot);

    let before = await counter(page, "changes");
    await page.click("#rule-save");
    await after(page, "changes", before);
    out.saved = await editor(page);
    out.preview = await shown(page);
    out.savedRule = await readAPI(page, rulePath, key);

    await page.click(`[data-edit="${id}"]`);
    out.editing = await editor(page);
    await page.fill("#rule-banner", newBanner);
    before = await counter(page, "changes");
    await page.click("#rule-save");
    await after(page, "changes", before);
    out.edited = await readAPI(page, rulePath, key);

    before = await counter(page, "changes");
    await page.focus(`[data-delete="${id}"]`);
    await page.keyboard.press("Enter");
    await after(page, "changes", before);
    out.deleted = await editor(page);
    out.focusAfterDelete = await page.evaluate(() => document.activeElement.id);
    out.error = await page.evaluate(() => (document.getElementById("error").hidden ? "" : document.getElementById("error").textContent));
  },

  // A search key: the rules listed, nothing to edit.
  async readOnly({ url, key }, out) {
    const { page } = await openStudio(url, key, out);
    out.first = await editor(page);
    out.axe = await axeViolations(page);
  },
};

await run(scenarios);
