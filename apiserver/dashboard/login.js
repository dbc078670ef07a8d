// The dashboard's key login, one for the Events page and the studio: the key form, the
// session line with the key's workspace, the index chooser, the calls to the API server
// with the key, and tables that scroll sideways on a phone. The key is kept in this tab
// (sessionStorage) and forgotten when it closes; every page of the dashboard shares it.

import { el } from "./ui.js";

export const KEY = "aisle.dashboard.key";
export const INDEX = "aisle.dashboard.index";
const $ = (id) => document.getElementById(id);

// api calls path with the tab's key; a body is sent as JSON. A refusal throws the
// server's {"error"} message with its status.
export async function api(path, { method = "GET", body } = {}) {
  const headers = { Authorization: `Bearer ${sessionStorage.getItem(KEY)}` };
  if (body !== undefined) headers["Content-Type"] = "application/json";
  const res = await fetch(path, { method, headers, cache: "no-store", body: body === undefined ? undefined : JSON.stringify(body) });
  const answer = await res.json().catch(() => ({}));
  if (!res.ok) throw Object.assign(new Error(answer.error || `the server answered ${res.status}`), { status: res.status });
  return answer;
}

// showError shows message in the page's alert line, or hides the line when it is empty.
export function showError(message) {
  $("error").hidden = !message;
  $("error").textContent = message || "";
}

// renderLogin builds the session line and the key form into #login, whose data-hint
// says what the page's key does.
function renderLogin(box) {
  const session = el("div", null, { id: "session", hidden: "" });
  const who = el("p", "Workspace ");
  who.append(el("strong", null, { id: "workspace" }), el("span", null, { id: "mode" }));
  session.append(who, el("button", "Forget key", { type: "button", id: "forget", class: "quiet" }));
  const form = el("form", null, { id: "key-form", autocomplete: "off" });
  form.append(el("label", "API key", { for: "key" }),
    el("input", null, { id: "key", name: "key", type: "password", required: "", spellcheck: "false", autocomplete: "off", "aria-describedby": "key-hint" }),
    el("button", "Open", { type: "submit" }),
    el("p", `${box.dataset.hint} It is kept in this tab only, and forgotten when the tab closes.`, { id: "key-hint", class: "hint" }));
  box.replaceWith(session, form);
}

// signedIn shows the key form, or the session line and the page's own controls (shown).
function signedIn(on, shown) {
  $("key-form").hidden = on;
  $("session").hidden = !on;
  for (const id of shown) $(id).hidden = !on;
  if (!on) $("main").hidden = true;
}

// setupLogin opens the page with the tab's key. page names the page in errors; shown
// are the ids of the controls shown once a key is in; opened(info, entered) shows the
// page for the key's info (GET /dashboard/api/key), entered saying the user just typed
// the key; forgotten() stops what the page runs once the key is forgotten.
export function setupLogin({ page, shown, opened, forgotten = () => {} }) {
  renderLogin($("login"));
  const open = async (entered) => {
    showError("");
    $("status").textContent = "Reading the key's indexes…";
    let info;
    try {
      info = await api("/dashboard/api/key");
    } catch (e) {
      // A refused key is forgotten; one the server could not check is kept for a retry.
      if (e.status === 401 || e.status === 403) sessionStorage.removeItem(KEY);
      signedIn(false, shown);
      $("status").textContent = "";
      document.body.dataset.state = "error";
      return showError(`This key cannot open the ${page}: ${e.message}`);
    }
    $("workspace").textContent = info.workspace;
    $("index").replaceChildren(...info.indexes.map((name) => el("option", name, { value: name })));
    signedIn(true, shown);
    if (!info.indexes.length) return showError("This key has no index.");
    const stored = sessionStorage.getItem(INDEX);
    if (info.indexes.includes(stored)) $("index").value = stored;
    await opened(info, entered);
  };
  $("key-form").addEventListener("submit", (e) => {
    e.preventDefault();
    sessionStorage.setItem(KEY, $("key").value.trim());
    $("key").value = "";
    open(true);
  });
  $("forget").addEventListener("click", () => {
    sessionStorage.removeItem(KEY);
    forgotten();
    signedIn(false, shown);
    $("status").textContent = "The key is forgotten.";
    $("key").focus();
  });
  addEventListener("resize", scrollable);
  if (sessionStorage.getItem(KEY)) open(false);
}

// chosenIndex is the index chosen, kept for the tab's next page.
export function chosenIndex() {
  const index = $("index").value;
  sessionStorage.setItem(INDEX, index);
  return index;
}

// scrollable makes a table that is wider than its box (on a phone) a named stop of the
// keyboard, so that it can be scrolled without a mouse; the others are no stop at all.
export function scrollable() {
  for (const box of document.querySelectorAll(".scroll")) {
    const wide = box.scrollWidth > box.clientWidth;
    for (const [k, v] of [["tabindex", "0"], ["role", "region"], ["aria-label", `${box.dataset.label}, scrolls sideways`]]) {
      if (wide) box.setAttribute(k, v);
      else box.removeAttribute(k);
    }
  }
}
