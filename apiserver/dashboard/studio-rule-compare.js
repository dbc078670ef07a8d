// The rules editor's comparison: the preview's page with the draft rule and without it
// (POST /rules/{ruleId}/preview), and the moves made on it. A product of either page
// dragged onto a position of the page with the rule is pinned there; its buttons pin it
// one place higher or hide it, for the keyboard.

import { el, number } from "./ui.js";
import { renderAnswer } from "./studio-preview.js";

const $ = (id) => document.getElementById(id);
const DRAGGED = "application/x-aisle-object-id";

// renderCompare shows both pages of a preview answer; moves gets pin(id, position) and
// hide(id) when the user moves a product.
export function renderCompare(p, moves) {
  for (const [side, res] of [["with", p.with], ["without", p.without]]) {
    renderAnswer(res, $(`rule-${side}`));
    const rules = res.appliedRules && res.appliedRules.length ? res.appliedRules.join(", ") : "none";
    $(`rule-${side}-summary`).textContent = `${number.format(res.total)} results; rules applied: ${rules}.`;
  }
  for (const li of $("rule-with").querySelectorAll("li.hit")) addMoves(li, moves);
  for (const list of ["rule-with", "rule-without"]) draggable($(list));
  $("rule-compare").hidden = false;
}

// addMoves gives a hit of the page with the rule its buttons and makes it a drop target.
function addMoves(li, moves) {
  const id = li.dataset.objectId;
  const at = Number(li.dataset.position);
  const name = li.querySelector("[data-name]").textContent;
  const bar = el("div", null, { class: "moves" });
  if (at > 1) bar.append(button("Up", `Up: pin ${name} at position ${at - 1}`, "up", () => moves.pin(id, at - 1)));
  bar.append(button("Hide", `Hide ${name}`, "hide", () => moves.hide(id)));
  li.append(bar);
  li.addEventListener("dragover", (e) => {
    if (e.dataTransfer.types.includes(DRAGGED)) {
      e.preventDefault();
      li.classList.add("drop");
    }
  });
  li.addEventListener("dragleave", () => li.classList.remove("drop"));
  li.addEventListener("drop", (e) => {
    e.preventDefault();
    li.classList.remove("drop");
    const dragged = e.dataTransfer.getData(DRAGGED);
    if (dragged) moves.pin(dragged, at);
  });
}

function button(text, label, move, click) {
  const b = el("button", text, { type: "button", class: "quiet", "aria-label": label, "data-move": move });
  b.addEventListener("click", click);
  return b;
}

// draggable lets the hits of list be dragged, carrying their objectID.
function draggable(list) {
  for (const li of list.querySelectorAll("li.hit")) {
    li.setAttribute("draggable", "true");
    li.title = "Drag onto a position of the page with the rule to pin it there";
    li.addEventListener("dragstart", (e) => {
      e.dataTransfer.setData(DRAGGED, li.dataset.objectId);
      e.dataTransfer.effectAllowed = "move";
    });
  }
}

// hideCompare hides the comparison: the draft changed into another rule.
export function hideCompare() {
  $("rule-compare").hidden = true;
}
