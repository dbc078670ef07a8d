// What every part of the studio shares: the key of this tab, the index in use, the calls
// to the API server and the page's status and error lines.

export const KEY = "aisle.dashboard.key";
export const INDEX = "aisle.dashboard.index";
const $ = (id) => document.getElementById(id);

// state is the session: the key's workspace, the index chosen, and whether the key may
// search (the preview) and write (the edit controls are shown only then; the server
// refuses anyway).
export const state = { workspace: "", index: "", canSearch: false, canWrite: false };

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

// indexPath is the path of an endpoint of the index in use.
export function indexPath(rest) {
  return `/api/teams/${encodeURIComponent(state.workspace)}/indexes/${encodeURIComponent(state.index)}${rest}`;
}

// announce says what just happened in the status line, which screen readers read out.
export function announce(message) {
  $("status").textContent = message;
}

export function showError(message) {
  $("error").hidden = !message;
  $("error").textContent = message || "";
}
