// The rules editor's lists of field groups (a rule's conditions, validity windows,
// boosts and buries): one numbered fieldset per item of the list, each removable, more
// added. Each list names its fields; what the values mean is studio-rule-form.js's.

import { el } from "./ui.js";
import { announce } from "./studio-api.js";

const $ = (id) => document.getElementById(id);

// groupList is the list shown in the element box, added to by the button add:
//   noun: each group's legend ("Condition" makes "Condition 2"), and in lower case what
//     its Remove button says it removes (and its data-remove-<kind> attribute);
//   fields: [{key, id, label, cls, control(value)}], in order; control makes the input or
//     select showing value, key is the value's name, id the control's id before "-n";
//     a field with keeps is read-only when the item holds kept (a value the form shows
//     but cannot write, kept as loaded);
//   blank(): a new item's values; added(n): what adding the nth says;
//   keepOne: the list always shows one group (removing the last empties it instead,
//     emptied says so).
export function groupList(spec) {
  const kept = new WeakMap(); // the kept value of each group that holds one
  const kind = spec.kind || spec.noun.toLowerCase();
  const box = () => $(spec.box);
  const groups = () => [...box().children];
  const firstControl = (g) => g.querySelector("input, select");

  function show(items) {
    box().replaceChildren(...items.map(group));
    renumber();
  }

  function group(item) {
    const g = el("fieldset", null, { class: `group ${kind}` });
    g.append(el("legend"));
    if (item.kept !== undefined) kept.set(g, item.kept);
    for (const f of spec.fields) {
      const control = f.control(item[f.key] ?? "");
      if (f.keeps && item.kept !== undefined) control.readOnly = true;
      const field = el("div", null, { class: `field ${f.cls || ""}`.trim() });
      field.append(el("label", f.label), control);
      g.append(field);
    }
    const remove = el("button", "Remove", { type: "button", class: "quiet", [`data-remove-${kind}`]: "" });
    remove.addEventListener("click", () => removeGroup(g));
    g.append(remove);
    return g;
  }

  function shown() {
    return groups().map((g) => {
      const controls = [...g.querySelectorAll(".field")].map((f) => f.querySelector("input, select"));
      const item = Object.fromEntries(spec.fields.map((f, i) => [f.key, controls[i].value]));
      return { ...item, kept: kept.get(g) };
    });
  }

  function add() {
    const g = group(spec.blank());
    box().append(g);
    renumber();
    firstControl(g).focus();
    announce(spec.added(groups().length));
  }

  // removeGroup removes g, the focus going to the group after it (before it, when last),
  // or to the Add button when none is left.
  function removeGroup(g) {
    const n = groups().indexOf(g) + 1;
    if (spec.keepOne && groups().length === 1) {
      show([spec.blank()]);
      firstControl(groups()[0]).focus();
      announce(spec.emptied);
      return;
    }
    const next = g.nextElementSibling || g.previousElementSibling;
    g.remove();
    renumber();
    (next ? firstControl(next) : $(spec.add)).focus();
    announce(`${spec.noun} ${n} removed; ${groups().length} left.`);
  }

  // renumber names each group "<noun> n", ties its labels to its fields by ids with n,
  // and says on each Remove button which group it removes.
  function renumber() {
    groups().forEach((g, i) => {
      const n = String(i + 1);
      g.dataset.group = n;
      g.querySelector("legend").textContent = `${spec.noun} ${n}`;
      [...g.querySelectorAll(".field")].forEach((f, j) => {
        const control = f.querySelector("input, select");
        control.id = `${spec.fields[j].id}-${n}`;
        f.querySelector("label").htmlFor = control.id;
      });
      const remove = g.querySelector(`[data-remove-${kind}]`);
      remove.setAttribute("aria-label", `Remove ${spec.noun.toLowerCase()} ${n}`);
      remove.setAttribute(`data-remove-${kind}`, n);
    });
  }

  return {
    show,
    shown,
    first: () => box().querySelector("input, select"),
    setup: () => $(spec.add).addEventListener("click", add),
  };
}

// input is a text field named name showing value.
export function input(name, value, attrs = {}) {
  const i = el("input", null, { name, autocomplete: "off", ...attrs });
  i.value = value;
  return i;
}
