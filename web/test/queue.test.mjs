// The client's pure decisions: batch size, backoff and what each answer means.
import { test } from "node:test";
import assert from "node:assert/strict";
import { backoff, retryWait, take } from "../aisle.js";

const events = (n, b) => Array.from({ length: n }, () => ({ b }));

test("a request carries at most 100 events", () => {
  assert.equal(take(events(250, 20)), 100);
  assert.equal(take(events(7, 20)), 7);
  assert.equal(take([]), 0);
});

test("a request stays under 60 KiB", () => {
  // {"events":[]} is 13 bytes, and each event after the first adds a comma.
  assert.equal(take(events(100, 1000)), 61);
  const n = take(events(100, 1000));
  assert.ok(13 + n * 1000 + (n - 1) < 60 * 1024);
  assert.ok(13 + (n + 1) * 1000 + n >= 60 * 1024);
});

test("an event larger than a request goes alone", () => {
  assert.equal(take([{ b: 70000 }, { b: 10 }]), 1);
});

test("a smaller limit takes fewer events, and none when the first does not fit", () => {
  assert.equal(take(events(10, 1000), 3000), 2);
  assert.equal(take(events(10, 1000), 500), 0);
  assert.equal(take(events(10, 1000), 0), 0, "a limit of 0 is no room, not no limit");
});

test("backoff doubles from a second up to a minute, with jitter", () => {
  assert.equal(backoff(1, () => 0), 500);
  assert.equal(backoff(1, () => 1), 1000);
  assert.equal(backoff(3, () => 1), 4000);
  assert.equal(backoff(20, () => 1), 60000);
});

test("429 waits Retry-After seconds", () => {
  assert.equal(retryWait(429, "3", 1), 3000);
  assert.equal(retryWait(429, "0", 1), 0);
});

test("429 without a usable Retry-After backs off", () => {
  for (const header of ["soon", null, "", " "]) {
    const w = retryWait(429, header, 3);
    assert.ok(w >= 2000 && w <= 4000, `${JSON.stringify(header)}: ${w}`);
  }
});

test("429 with an HTTP date waits until then", () => {
  const now = Date.UTC(2026, 10, 24, 12);
  assert.equal(retryWait(429, new Date(now + 7000).toUTCString(), 1, now), 7000);
  assert.equal(retryWait(429, new Date(now - 7000).toUTCString(), 1, now), 0);
});

test("503, other 5xx and network errors retry; success and refusals end the batch", () => {
  for (const status of [0, 500, 502, 503]) assert.ok(retryWait(status, null, 1) > 0, String(status));
  for (const status of [200, 202, 400, 403, 404, 413]) assert.equal(retryWait(status, null, 1), -1, String(status));
});
