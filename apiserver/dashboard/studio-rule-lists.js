// The rules editor's validity windows, boosts and buries: each of a rule's as a group of
// fields, removable, and more added (studio-rule-groups.js), as its conditions are. What
// the fields mean is studio-rule-form.js's windowsOf and weightedOf.

import { groupList, input } from "./studio-rule-groups.js";

const time = (name) => (v) => input(name, v, { type: "datetime-local" });

export const windows = groupList({
  box: "rule-windows", add: "rule-add-window", noun: "Validity window", kind: "window",
  blank: () => ({ from: "", until: "" }),
  fields: [
    { key: "from", id: "rule-from", label: "From (UTC)", control: time("from") },
    { key: "until", id: "rule-until", label: "Until (UTC)", control: time("until") },
  ],
  added: (n) => `Validity window ${n} added; the rule applies within any of its windows.`,
});

// weighted is the list of a rule's boosts or buries: a filter and a weight each.
function weighted(noun, box, placeholder) {
  const kind = noun.toLowerCase();
  return groupList({
    box, add: `rule-add-${kind}`, noun, kind,
    blank: () => ({ filter: "", weight: "1", kept: undefined }),
    fields: [
      { key: "filter", id: `rule-${kind}`, label: "Filter", cls: "grow", keeps: true,
        control: (v) => input(`${kind}Filter`, v, { placeholder, "aria-describedby": "rule-weights-hint" }) },
      { key: "weight", id: `rule-${kind}-weight`, label: "Weight",
        control: (v) => input(`${kind}Weight`, v, { type: "number", min: "1", max: "10", step: "1", inputmode: "numeric", required: "" }) },
    ],
    added: (n) => `${noun} ${n} added: give it a filter.`,
  });
}

export const boosts = weighted("Boost", "rule-boosts", "brand:Glow");
export const buries = weighted("Bury", "rule-buries", "inStock:false");

// setupLists wires the lists' Add buttons.
export function setupLists() {
  for (const l of [windows, boosts, buries]) l.setup();
}
