// What every part of the studio shares: the index in use, the calls to the API server
// with the tab's key (login.js) and the page's status and error lines.

export { api, showError } from "./login.js";
const $ = (id) => document.getElementById(id);

// state is the session: the key's workspace, the index chosen, and whether the key may
// search (the preview) and write (the edit controls are shown only then; the server
// refuses anyway), and the index's facet fields, which the preview asks for.
export const state = { workspace: "", index: "", canSearch: false, canWrite: false, facetFields: [] };

// indexPath is the path of an endpoint of the index in use.
export function indexPath(rest) {
  return `/api/teams/${encodeURIComponent(state.workspace)}/indexes/${encodeURIComponent(state.index)}${rest}`;
}

// announce says what just happened in the status line, which screen readers read out.
export function announce(message) {
  $("status").textContent = message;
}
