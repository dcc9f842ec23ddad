// The web app's strings, as `node --test` runs them (make test): both catalogues complete, plurals
// by each language's rules, no "(s)" left for a reader to untangle.
import { test } from "node:test";
import assert from "node:assert/strict";

const { STRINGS, t, setLanguage, missing, failureText } = await import("../../Sources/FrontEnds/WebApp/Web/i18n.js");

test("every key is in both languages, none empty", () => {
  assert.deepEqual(missing(), []);
});

test("counts take the plural form English needs, in every string that counts", () => {
  setLanguage("en");
  assert.equal(t("words.count", { count: 1 }), "1 word");
  assert.equal(t("words.count", { count: 2 }), "2 words");
  assert.equal(t("words.count", { count: 0 }), "0 words");
  assert.equal(t("search.results", { count: 1, q: "cat", sources: "catalog" }), "1 result for “cat” in catalog.");
  assert.equal(t("class.added", { count: 1 }), "Added 1 child: their pictures are below.");
  assert.equal(t("class.added", { count: 3 }), "Added 3 children: their pictures are below.");
  assert.equal(t("game.sent", { count: 1 }), "1 answer added to your review.");
});

test("Vietnamese has one form for every count", () => {
  setLanguage("vi");
  assert.equal(t("words.count", { count: 1 }), "1 từ");
  assert.equal(t("words.count", { count: 5 }), "5 từ");
  setLanguage("en");
});

test("a string with plural forms has one and other; no string leaves (s) or (ren) to the reader", () => {
  for (const [lang, strings] of Object.entries(STRINGS)) {
    for (const [key, text] of Object.entries(strings)) {
      const forms = typeof text === "object" ? Object.values(text) : [text];
      if (typeof text === "object") assert.ok(text.one && text.other, `${lang} ${key}: one and other`);
      for (const form of forms) assert.doesNotMatch(form, /\((s|ren)\)/, `${lang} ${key}: ${form}`);
    }
  }
});

test("a value is filled in where its name is, and a missing value leaves nothing", () => {
  setLanguage("en");
  assert.equal(t("review.toGo", { count: 3, phase: "new" }), "3 to go · new");
  assert.equal(t("review.toGo", { count: 3 }), "3 to go · ");
  assert.equal(t("no.such.key"), "no.such.key");
});

test("a refusal is worded by its code, else by its status, in the interface language; never the server's message", () => {
  const refusal = (status, code) => ({ status, code, message: "the server's own English words" });
  setLanguage("vi");
  assert.equal(failureText(refusal(404, "unknown_entry")), "Từ này không còn trong danh sách từ nữa.");
  assert.equal(failureText(refusal(400, "bad_tones")), STRINGS.vi["failure.status.400"]);
  assert.equal(failureText(refusal(418, "no_such_code")), STRINGS.vi["failure.other"]);
  assert.equal(failureText(new TypeError("Failed to fetch")), STRINGS.vi["error.offline"]);
  setLanguage("en");
  assert.equal(failureText(refusal(429, "too_many_attempts")), "That was a lot of tries. Wait a minute, then try again.");
  for (const lang of ["en", "vi"]) {
    setLanguage(lang);
    for (const [status, code] of [[404, "unknown_word"], [503, "x"], [500, "internal"], [401, "unauthorized"]]) {
      assert.doesNotMatch(failureText(refusal(status, code)), /server's own|_/);
    }
  }
  setLanguage("en");
});
