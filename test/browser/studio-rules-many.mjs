// Drives Debian's Chromium through the rules editor of an index with more rules than one
// page of its list: a rule found by the search box (after a search the API refuses), then
// reached by paging, from the keyboard; and its conditions edited (one changed, one added,
// one removed) and saved.
import { after, axeViolations, counter, onPhone, openStudio, press, readAPI, retype, run, tabUntil } from "./studio-lib.mjs";

// listShown reads the rules list: its rows, its count, its paging buttons, the focus.
function listShown(page) {
  return page.evaluate(() => ({
    rules: [...document.querySelectorAll('tr[data-row="rules"] [data-rule]')].map((e) => e.dataset.rule),
    count: document.getElementById("rules-count").textContent,
    caption: (document.querySelector("#rules-list caption") || {}).textContent || "",
    prevDisabled: document.getElementById("rules-prev").disabled,
    nextDisabled: document.getElementById("rules-next").disabled,
    status: document.getElementById("status").textContent,
    focus: document.activeElement.id,
    error: document.getElementById("error").hidden ? "" : document.getElementById("error").textContent,
  }));
}

// conditionsShown reads the form's conditions, each group as the page shows it.
function conditionsShown(page) {
  return page.evaluate(() => [...document.querySelectorAll("#rule-conditions fieldset")].map((g) => {
    const f = (name) => g.querySelector(`[name=${name}]`);
    return { legend: g.querySelector("legend").textContent, pattern: f("pattern").value, anchoring: f("anchoring").value,
      filters: f("condFilters").value, filtersReadOnly: f("condFilters").readOnly, context: f("context").value,
      labelled: [...g.querySelectorAll("input, select")].every((e) => e.labels.length === 1) };
  }));
}

// listed runs act (keys pressed) and waits for the list to be shown again, or, when the
// API is to refuse, for its error. (An error shown already ends no wait: after() would.)
async function listed(page, act, refused = false) {
  const before = await counter(page, "ruleLists");
  await act();
  try {
    await page.waitForFunction(([b, r]) => (r ? !document.getElementById("error").hidden : Number(document.body.dataset.ruleLists || 0) > b),
      [before, refused], { timeout: 15000 });
  } catch (e) {
    throw new Error(`the rules list was not shown again: ${JSON.stringify(await listShown(page))}`);
  }
  return listShown(page);
}

// search types words into the search box, reached by Tab, and presses Enter; without
// enter, the list follows the typing alone; refused, the API's error is waited for.
async function search(page, words, enter = true, refused = false) {
  const there = await page.evaluate(() => document.activeElement.id === "rules-search");
  if (!there && !(await tabUntil(page, "#rules-search", 120))) throw new Error("Tab never reached the rules search box");
  await page.keyboard.press("Control+A");
  if (!enter) {
    // A slow machine may list a word typed halfway first: wait for the whole one.
    await listed(page, () => page.keyboard.type(words));
    await page.waitForFunction((w) => document.body.dataset.rulesQuery === w, words, { timeout: 15000 });
    return listShown(page);
  }
  await page.keyboard.type(words);
  return listed(page, () => page.keyboard.press("Enter"), refused);
}

const scenarios = {
  async many({ url, key, word, tooLong, target, rulePath, second, third, shot, phoneShot }, out) {
    const { page } = await openStudio(url, key, out);
    out.first = await listShown(page);
    out.tooLong = await search(page, tooLong, true, true);
    out.found = await search(page, `${word} ${target.split("-").pop()}`);
    out.searched = await search(page, word, false);
    out.paged = await listed(page, () => press(page, "#rules-next"));
    await press(page, `[data-edit="${target}"]`);
    out.editing = await conditionsShown(page);
    out.editFocus = await page.evaluate(() => document.activeElement.id);

    await retype(page, "#rule-pattern-2", second);
    await press(page, "#rule-add-condition");
    out.addFocus = await page.evaluate(() => document.activeElement.id);
    await page.keyboard.type(third.pattern);
    await page.selectOption("#rule-anchoring-3", third.anchoring);
    await retype(page, "#rule-cond-filters-3", third.filters);
    await retype(page, "#rule-context-3", third.context);
    await page.focus('[data-remove-condition="1"]');
    await page.keyboard.press("Enter");
    out.removeFocus = await page.evaluate(() => document.activeElement.id);
    out.removeStatus = await page.evaluate(() => document.getElementById("status").textContent);
    out.beforeSave = await conditionsShown(page);
    out.axe = await axeViolations(page);
    out.phone = await onPhone(page, phoneShot);
    await page.screenshot({ path: shot, fullPage: true });

    const before = await counter(page, "changes");
    await page.focus("#rule-save");
    await page.keyboard.press("Enter");
    await after(page, "changes", before);
    out.saved = await readAPI(page, rulePath, key);
    out.afterSave = await listShown(page);
    out.savedConditions = await conditionsShown(page);
  },
};

await run(scenarios);
