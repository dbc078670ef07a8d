// Drives Debian's Chromium through the rules editor's lists of a rule holding several
// validity windows, boosts and buries: each shown, one of each changed, added and
// removed from the keyboard, an empty boost refused, and the rule saved.
import { axeViolations, counter, enter, focusAndStatus, onPhone, openStudio, press, readAPI, retype, run } from "./studio-lib.mjs";

// listsShown reads the form's validity windows, boosts and buries, each group as the
// page shows it: its legend, its fields' values (by their name) and which are read-only.
function listsShown(page) {
  return page.evaluate(() => Object.fromEntries(["windows", "boosts", "buries"].map((list) =>
    [list, [...document.querySelectorAll(`#rule-${list} fieldset`)].map((g) => {
      const controls = [...g.querySelectorAll("input")];
      return { legend: g.querySelector("legend").textContent,
        values: Object.fromEntries(controls.map((c) => [c.name, c.value])),
        readOnly: controls.filter((c) => c.readOnly).map((c) => c.name),
        labelled: controls.every((c) => c.labels.length === 1),
        remove: g.querySelector("button").getAttribute("aria-label") };
    })])));
}

const error = (page) => page.evaluate(() => (document.getElementById("error").hidden ? "" : document.getElementById("error").textContent));

// typeTime types a UTC minute ("2027-02-01T09:30") into a datetime-local field, segment
// by segment as Chromium's en-US field takes it (its locale when the system's is C):
// month, day, year, hour, minute, AM/PM. Each segment moves on when full, but the year,
// which may have six digits: the right arrow moves on from it. Another locale's order
// fails here, not later.
async function typeTime(page, selector, local) {
  const [, y, mo, d, h, mi] = local.match(/^(\d{4})-(\d\d)-(\d\d)T(\d\d):(\d\d)$/);
  const hour = Number(h) % 12 || 12;
  await page.focus(selector);
  await page.keyboard.type(`${mo}${d}${y}`);
  await page.keyboard.press("ArrowRight");
  await page.keyboard.type(`${String(hour).padStart(2, "0")}${mi}${Number(h) < 12 ? "A" : "P"}`);
  const typed = await page.inputValue(selector);
  if (typed !== local) throw new Error(`typing ${local} into ${selector} gave "${typed}"`);
}

const scenarios = {
  async lists({ url, key, id, rulePath, changed, added, shot, phoneShot }, out) {
    const { page } = await openStudio(url, key, out);
    await press(page, `[data-edit="${id}"]`, 150);
    out.editing = await listsShown(page);
    out.notes = await page.evaluate(() => [...document.querySelectorAll("#rule-notes li")].map((li) => li.textContent));

    // Windows: the second's end changed, the first removed, one added (Tab reaches its
    // Add button from the window before).
    await typeTime(page, "#rule-until-2", changed.until);
    out.windowRemoved = await enter(page, '[data-remove-window="1"]');
    await press(page, "#rule-add-window");
    out.windowAdded = await focusAndStatus(page);
    await typeTime(page, "#rule-from-3", added.from);
    await typeTime(page, "#rule-until-3", added.until);

    // Boosts and buries: the first boost's weight changed, the second removed, a bury added.
    await retype(page, "#rule-boost-weight-1", changed.weight);
    out.boostRemoved = await enter(page, '[data-remove-boost="2"]');
    await press(page, "#rule-add-bury");
    out.buryAdded = await focusAndStatus(page);
    await page.keyboard.type(added.bury);
    await retype(page, "#rule-bury-weight-2", added.buryWeight);

    // A boost added and left empty is refused at saving, and removed.
    await enter(page, "#rule-add-boost");
    await enter(page, "#rule-save");
    await page.waitForFunction(() => !document.getElementById("error").hidden, null, { timeout: 15000 });
    out.emptyRefused = await error(page);
    await enter(page, '[data-remove-boost="3"]');
    out.beforeSave = await listsShown(page);
    out.axe = await axeViolations(page);
    out.phone = await onPhone(page, phoneShot);
    await page.locator("#rule-form").screenshot({ path: shot });

    // The refusal's error is still shown: wait for the save's change alone.
    const before = await counter(page, "changes");
    await enter(page, "#rule-save");
    try {
      await page.waitForFunction((b) => Number(document.body.dataset.changes || 0) > b, before, { timeout: 15000 });
    } catch (e) {
      throw new Error(`the rule was not saved: ${await error(page)}`);
    }
    out.error = await error(page);
    out.saved = await readAPI(page, rulePath, key);
    out.afterSave = await listsShown(page);
  },
};

await run(scenarios);
