// Drives Debian's Chromium through the studio's facet ordering: facets and values
// dragged into order, values pinned and hidden from the keyboard, the other values'
// order chosen, saved, and the preview following.
import { axeViolations, changes, onPhone, openStudio, readAPI, run } from "./studio-lib.mjs";

// facetsShown reads the editor's facets and values, and the preview's.
function facetsShown(page) {
  return page.evaluate(() => ({
    editor: [...document.querySelectorAll("#facet-order li.facet")].map((li) => ({
      field: li.dataset.facet,
      values: [...li.querySelectorAll("li.facet-value")].map((v) => ({ value: v.dataset.value,
        pinned: !!v.querySelector(".tag.pinned"), hidden: [...v.querySelectorAll(".tag")].some((t) => t.textContent === "hidden") })),
      remaining: li.querySelector("[data-remaining]").value,
      buttons: li.querySelectorAll("button").length,
    })),
    preview: [...document.querySelectorAll("[data-preview-facet]")].map((f) => ({
      field: f.dataset.previewFacet, values: [...f.querySelectorAll("li")].map((li) => li.dataset.value) })),
    saveShown: !document.getElementById("facets-save").hidden,
    error: document.getElementById("error").hidden ? "" : document.getElementById("error").textContent,
  }));
}

const edits = (page) => page.evaluate(() => Number(document.body.dataset.facetEdits || 0));
async function edited(page, act) {
  const before = await edits(page);
  await act();
  await page.waitForFunction((b) => Number(document.body.dataset.facetEdits || 0) > b, before, { timeout: 10000 });
}

const scenarios = {
  async edit({ url, key, dragFacet, ontoFacet, field, dragValue, ontoValue, pinValue, hideValue, otherField, configPath, shot }, out) {
    const { page } = await openStudio(url, key, out);
    out.first = await facetsShown(page);
    await edited(page, () => page.dragAndDrop(`li.facet[data-facet="${dragFacet}"] h3`, `li.facet[data-facet="${ontoFacet}"] h3`));
    await edited(page, () => page.dragAndDrop(`li.facet[data-facet="${field}"] li[data-value="${dragValue}"] .name`,
      `li.facet[data-facet="${field}"] li[data-value="${ontoValue}"] .name`));
    await page.focus(`li.facet[data-facet="${field}"] li[data-value="${pinValue}"] [data-facet-move=pin]`);
    await edited(page, () => page.keyboard.press("Enter"));
    await page.focus(`li.facet[data-facet="${field}"] li[data-value="${hideValue}"] [data-facet-move=hide]`);
    await edited(page, () => page.keyboard.press("Enter"));
    await page.focus(`li.facet[data-facet="${otherField}"] [data-remaining]`);
    await edited(page, () => page.selectOption(`li.facet[data-facet="${otherField}"] [data-remaining]`, "alpha"));
    out.drafted = await facetsShown(page);
    out.axe = await axeViolations(page);
    await page.screenshot({ path: shot, fullPage: true });
    out.phone = await onPhone(page);
    const before = await changes(page);
    await page.click("#facets-save");
    await page.waitForFunction((b) => Number(document.body.dataset.changes || 0) > b || !document.getElementById("error").hidden, before, { timeout: 15000 });
    out.saved = await facetsShown(page);
    out.config = await readAPI(page, configPath, key);
  },

  async readOnly({ url, key }, out) {
    const { page } = await openStudio(url, key, out);
    out.first = await facetsShown(page);
    out.axe = await axeViolations(page);
  },
};

await run(scenarios);
