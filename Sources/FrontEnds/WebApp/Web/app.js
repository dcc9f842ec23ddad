// The pages of the web app, routed by the URL's hash (#/category/animals), so the server
// serves one page and the JSON API. Each view reads the API and shows what it answers.
import { api, APIError, catalog, me, session, setCSRF, enc } from "./api.js";
import { barChart, rowChart, meter } from "./charts.js";
import { drawing, KINDS } from "./pictures.js";
import { queueRating, flushQueue, pendingCount } from "./offline.js";
import { t, failureText, language, setLanguage, translatePage } from "./i18n.js";

const main = document.getElementById("main");
const status = document.getElementById("status");
const player = document.getElementById("player");
const PAGE = 24;
const LEVELS = { starters: "Starters", movers: "Movers", flyers: "Flyers" };   // the exams' own names, in both languages
// A first visit starts at Starters, the youngest children's level, never all levels at once
// (`cat` would show a Flyers sentence to a six-year-old); "" is all levels, chosen in the header.
const state = { user: null, level: localStorage.getItem("vocab.level") ?? "starters" };

// Elements without innerHTML: text from the API is never parsed as markup.
function h(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (v === undefined || v === null || v === false) continue;
    if (k.startsWith("on")) node.addEventListener(k.slice(2), v);
    else if (k === "style") node.style.cssText = v;
    else node.setAttribute(k, v === true ? "" : v);
  }
  for (const c of children.flat()) if (c !== null && c !== undefined && c !== false) node.append(c);
  return node;
}

function say(text) { status.textContent = text; }

function show(title, ...content) {
  document.title = `${title} · vocab`;
  // A part a page leaves out is null: replaceChildren would print it as the text "null".
  main.replaceChildren(h("h1", {}, title), ...content.filter((c) => c !== null && c !== undefined && c !== false));
  // Focus moves to the new content for screen readers and keyboards; the view starts at the top.
  main.focus({ preventScroll: true });
  window.scrollTo(0, 0);
}

function levelQuery() { return state.level || undefined; }

// A category's games at the chosen level.
function playLink(id) { return `#/play/${enc(id)}${state.level ? `?level=${state.level}` : ""}`; }

// A category's name in the interface's language.
function categoryName(c) { return c.name[language()] ?? c.name.en; }

// MARK: audio

// Plays a word's clip; the error when it could not be played (null when it played).
function play(word, accent, button, speed, quiet = false) {
  return playClip(catalog.audioURL(word, accent, speed), word, accent, button, speed, quiet);
}

// A Mandarin title in one of its readings.
function playMandarin(title, reading, button, speed) {
  return playClip(catalog.moeAudioURL(title, reading, speed), title, "mandarin", button, speed);
}

async function playClip(url, word, accent, button, speed, quiet = false) {
  player.src = url;
  player.dataset.word = word;
  player.dataset.accent = accent;
  player.dataset.speed = speed ?? "1";
  button?.setAttribute("aria-busy", "true");
  try {
    await player.play();
    return null;
  } catch (e) {
    // A browser that waits for a first tap before playing sound, or a clip cut short by the next
    // one, is not a failure to report.
    if (e.name !== "NotAllowedError" && e.name !== "AbortError" && !quiet) say(t("play.failed", { word }));
    return e;
  } finally {
    button?.removeAttribute("aria-busy");
  }
}

function playButtons(word) {
  return h("div", { class: "plays" },
    h("button", { type: "button", class: "play", "data-accent": "british", "aria-label": t("play.british", { word }), onclick: (e) => play(word, "british", e.currentTarget) }, t("play.uk")),
    h("button", { type: "button", class: "play", "data-accent": "american", "aria-label": t("play.american", { word }), onclick: (e) => play(word, "american", e.currentTarget) }, t("play.us")),
    h("button", { type: "button", class: "play slow", "data-accent": "british", "aria-label": t("play.slowly", { word }), onclick: (e) => play(word, "british", e.currentTarget, 0.75) }, t("play.slow")));
}

// Which accents of a word a person recorded (the server says which tier answers a clip): said
// beside the buttons, and on each button, once the answers are in.
function personsVoice(word) {
  const note = h("p", { class: "voice", hidden: true });
  Promise.all(["british", "american"].map((accent) =>
    fetch(catalog.audioURL(word, accent), { method: "HEAD" }).then((r) => (r.ok && r.headers.get("X-Vocab-Tier") === "recorded" ? accent : null)).catch(() => null)))
    .then((found) => {
      const accents = found.filter(Boolean);
      if (!accents.length) return;
      for (const accent of accents) {
        note.closest("section")?.querySelector(`.plays button.play:not(.slow)[data-accent="${accent}"]`)?.classList.add("person");
      }
      note.textContent = t(accents.length === 2 ? "voice.personBoth" : `voice.person.${accents[0]}`);
      note.hidden = false;
    });
  return note;
}

// A Mandarin reading's speech, at its pace and slower.
function mandarinButtons(title, reading) {
  return h("div", { class: "plays" },
    h("button", { type: "button", class: "play", "aria-label": t("play.reading", { word: title, reading }), onclick: (e) => playMandarin(title, reading, e.currentTarget) }, "▶ 國語"),
    h("button", { type: "button", class: "play slow", "aria-label": t("play.readingSlowly", { word: title, reading }), onclick: (e) => playMandarin(title, reading, e.currentTarget, 0.75) }, t("play.slow")),
    // No person's recording of Mandarin ships: the learner is told the voice is a machine's.
    h("p", { class: "voice synthetic" }, t("voice.mandarinComputer")));
}

// The accent a catalog card is spoken in: the learner's choice for it, British otherwise.
function cardAccent(c) { return c.audio === "american" ? "american" : "british"; }

// The clip a card plays (kept by the service worker for offline review).
function clipURL(c) {
  if (c.source === "catalog") return catalog.audioURL(c.front, cardAccent(c));
  if (c.source === "moe") return catalog.moeAudioURL(c.front, c.pinyin);
  return null;
}

function ipaLine(ipa) {
  return h("p", { class: "ipa" }, `UK /${ipa.british}/ · US /${ipa.american}/`);
}

// MARK: catalog pages

async function categoriesPage() {
  const list = await catalog.categories(levelQuery());
  const levelName = LEVELS[state.level] ?? t("level.allLevels");
  show(t("categories.title"),
    h("p", {}, t("categories.count", { count: list.wordCount, level: levelName })),
    h("ul", { class: "grid" }, list.categories.map((c) =>
      h("li", {}, h("a", { class: "tile", href: `#/category/${enc(c.id)}`, style: `--tile:${c.color}` },
        h("span", { class: "emoji", "aria-hidden": "true" }, c.icon),
        h("span", { class: "en" }, c.name.en),
        h("span", { class: "vi", lang: "vi" }, c.name.vi),
        h("span", { class: "count" }, t("words.count", { count: c.wordCount })))))),
    ...kindTiles());
}

// The games over kinds of words (doing words, where words), across all topics, at the level.
function kindTiles() {
  return [h("h2", {}, t("kind.title")),
    h("ul", { class: "grid", id: "kinds" }, Object.entries(KINDS).map(([id, k]) =>
      h("li", {}, h("a", { class: "tile game-tile", href: `#/play/${enc(id)}${state.level ? `?level=${state.level}` : ""}`, style: `--tile:${k.color}`, "data-kind": id },
        h("span", { class: "emoji", "aria-hidden": "true" }, k.icon),
        h("span", { class: "en" }, t(k.name)),
        h("span", { class: "vi" }, t(`${k.name}Help`))))))];
}

// The picture a child recognises before reading (absent where no emoji shows the word), named
// for screen readers by the word it shows.
function picture(w, big = false) {
  return w.picture || w.image ? h("span", { class: big ? "picture big" : "picture", role: "img", "aria-label": w.word }, drawing(h, w)) : null;
}

// Which sense, where a headword has several entries: "bat · animal".
function senseLabel(sense) {
  return sense ? h("span", { class: "sense" }, ` · ${sense.en}`, h("span", { lang: "vi" }, ` (${sense.vi})`)) : null;
}

function wordCard(w) {
  return h("li", { class: "card" },
    picture(w),
    h("h2", {}, h("a", { href: `#/word/${enc(w.word)}` }, w.word), senseLabel(w.sense)),
    h("p", { class: "pos" }, w.pos.map(partOfSpeech).join(", ")),
    ipaLine(w.ipa),
    h("p", { lang: "vi" }, w.vi),
    playButtons(w.word));
}

async function categoryPage(id, page) {
  const offset = page * PAGE;
  const body = await catalog.words(id, levelQuery(), PAGE, offset);
  const pages = Math.max(1, Math.ceil(body.total / PAGE));
  const go = (p) => { location.hash = `#/category/${enc(id)}/${p}`; };
  show(`${body.category.icon} ${body.category.name.en}`,
    h("p", {}, t("category.count", { vi: body.category.name.vi, count: body.total, level: LEVELS[state.level] ?? t("level.allLevels") })),
    h("p", { class: "actions" },
      h("a", { href: playLink(id), class: "button primary", id: "play-link" }, t("game.play")),
      h("a", { href: `#/print/${enc(id)}`, class: "button", id: "print-link" }, t("category.print"))),
    h("ul", { class: "cards" }, body.words.map(wordCard)),
    h("nav", { class: "pager", "aria-label": t("pages") },
      h("button", { type: "button", disabled: page === 0, onclick: () => go(page - 1) }, t("page.previous")),
      h("span", {}, t("page.of", { page: page + 1, pages })),
      h("button", { type: "button", disabled: page + 1 >= pages, onclick: () => go(page + 1) }, t("page.next"))));
  // The page's clips are made before a child taps one (British, at its pace: the first button).
  navigator.serviceWorker?.controller?.postMessage({ type: "keep", urls: body.words.map((w) => catalog.audioURL(w.word, "british")) });
}

// Every word of a category at the level, picture first, compact: what a teacher prints for a
// class (the header, buttons and paging are not printed).
async function printPage(id) {
  const body = await catalog.words(id, levelQuery(), 1000, 0);
  const level = LEVELS[state.level] ?? t("level.allLevels");
  show(`${body.category.icon} ${body.category.name.en} · ${level}`,
    h("p", { lang: "vi", class: "print-sub" }, `${body.category.name.vi} · ${t("words.count", { count: body.total })}`),
    h("p", { class: "no-print" }, h("button", { type: "button", class: "primary", onclick: () => window.print() }, t("print.button"))),
    h("ol", { class: "print-list", id: "print-list" }, body.words.map((w) =>
      h("li", {},
        picture(w) ?? h("span", { class: "picture", "aria-hidden": "true" }),
        h("span", { class: "word" }, w.word), senseLabel(w.sense),
        h("span", { class: "vi", lang: "vi" }, w.vi)))));
}

// A part of speech in the interface language ("noun", "danh từ"); one the catalogue lacks as it is.
function partOfSpeech(pos) { const key = `pos.${pos}`; const text = t(key); return text === key ? pos : text; }

async function wordPage(word) {
  // The categories by their names in the interface language, not their ids ("Sports and leisure").
  const [body, list] = await Promise.all([catalog.word(word), catalog.categories().catch(() => null)]);
  const named = Object.fromEntries((list?.categories ?? []).map((c) => [c.id, categoryName(c)]));
  // A Save for each sense the page shows ("bat · animal", "bat · sports"): it saves that entry
  // and no other. One sense keeps the single button at the end of the page.
  const saveButton = (w, id) => h("button", { type: "button", class: "primary", id, "data-entry": w.id, onclick: async (e) => {
    // currentTarget is only set while the event is dispatched: keep the button before awaiting.
    const button = e.currentTarget;
    button.disabled = true;
    let r;
    try {
      r = await me.saveEntry(w);
    } catch (err) {
      button.disabled = false;
      return say(failureText(err));
    }
    const label = w.sense ? `${body.word} · ${w.sense.en}` : body.word;
    say(r.added > 0 ? t("word.savedStatus", { word: label }) : t("word.already", { word: label }));
    button.textContent = t("word.saved");
  } }, t("word.save"));
  const several = body.entries.length > 1;
  show(body.word,
    ...body.entries.map((w, i) => {
      // The learner's level's example, else the lowest level's: a child never meets Flyers first.
      const example = w.examples[state.level] ?? Object.keys(LEVELS).map((l) => w.examples[l]).find(Boolean);
      return h("section", { class: "card" },
        picture(w, true),
        h("h2", {}, body.word, senseLabel(w.sense), " ", h("span", { class: "pos" }, w.pos.map(partOfSpeech).join(", ")), " · ", w.categories.map((c) => named[c] ?? c).join(", ")),
        ipaLine(w.ipa),
        playButtons(w.word),
        i === 0 ? personsVoice(w.word) : null,
        // Say it: signed in, the child says the word and the server listens.
        state.user && i === 0 ? h("p", {}, h("a", { class: "button say-link", id: "say-it", href: `#/say/${enc(body.word)}/${enc(w.id)}` }, `🎤 ${t("game.say")}`)) : null,
        h("p", {}, h("strong", {}, t("word.english")), h("span", { lang: "en" }, w.definition.en)),
        h("p", {}, h("strong", {}, t("word.vietnamese")), h("span", { lang: "vi" }, w.vi, w.definition.vi ? ` — ${w.definition.vi}` : "")),
        example ? h("p", {}, h("strong", {}, t("word.example")), h("q", { lang: "en" }, example)) : null,
        h("p", { class: "pos" }, t("word.levels", { levels: w.levels.map((l) => LEVELS[l] ?? l).join(", ") })),
        several && state.user ? saveButton(w, i === 0 ? "save" : `save-${i}`) : null);
    }),
    !state.user ? h("p", {}, h("a", { href: "#/signin" }, t("nav.signin")), t("word.signinToSave"))
      : several ? null : saveButton(body.entries[0], "save"));
}

// MARK: search

const searchForm = document.getElementById("search");
const searchBox = document.getElementById("search-q");
const SOURCES = { catalog: "source.catalog", moe: "source.moe", library: "source.library" };
const MATCHED = { translation: "match.translation", definition: "match.definition", pinyin: "match.pinyin", bopomofo: "match.bopomofo" };
const sourceName = (s) => (SOURCES[s] ? t(SOURCES[s]) : s);

searchForm.addEventListener("submit", (e) => {
  e.preventDefault();
  const q = searchBox.value.trim();
  if (q) location.hash = `#/search/${enc(q)}`;
});

// Where a result leads: the catalog word or the Mandarin entry; saved dictionary words have
// no page of their own but the library.
function resultLink(r) {
  if (r.source === "catalog") return `#/word/${enc(r.title)}`;
  if (r.source === "moe") return `#/moe/${enc(r.title)}`;
  return "#/library";
}

// A result as a child meets it: the picture first, the word with its sound, the Vietnamese; how it
// matched only where that is not plain (found by its Vietnamese, its meaning or its pinyin).
function resultItem(r) {
  const lang = r.source === "moe" ? "zh-Hant" : "en";
  const catalogWord = r.id !== undefined;
  const how = MATCHED[r.match];
  return h("li", { class: "card result", "data-source": r.source, "data-reference": r.reference },
    picture({ picture: r.picture, image: r.image, word: r.title }),
    h("h3", {}, h("a", { href: resultLink(r), lang }, r.title), senseLabel(r.sense), " ", h("span", { class: "badge" }, sourceName(r.source))),
    r.reading ? h("p", { class: "ipa" }, r.reading) : null,
    r.gloss ? h("p", { lang: r.source === "catalog" ? "vi" : r.source === "moe" ? "zh-Hant" : "en" }, r.gloss) : null,
    catalogWord ? playButtons(r.title) : null,
    how ? h("p", { class: "pos" }, t(how)) : null);
}

async function searchPage(q, page) {
  searchBox.value = q ?? "";
  if (!q) {
    show(t("search.title"), h("p", {}, t("search.help")));
    searchBox.focus();
    return;
  }
  const body = await catalog.search(q, PAGE, page * PAGE);
  const pages = Math.max(1, Math.ceil(body.total / PAGE));
  const go = (p) => { location.hash = `#/search/${enc(q)}/${p}`; };
  // Grouped by source in the server's order (whole matches of every source come first).
  const groups = [];
  for (const r of body.results) {
    if (groups.at(-1)?.source !== r.source) groups.push({ source: r.source, results: [] });
    groups.at(-1).results.push(r);
  }
  const summary = body.total === 0
    ? h("p", { id: "search-summary" }, t("search.nothing", { q }),
        body.suggestions.length ? [t("search.didYouMean"), ...body.suggestions.flatMap((s, i) => [i ? ", " : "", h("a", { href: `#/search/${enc(s)}` }, s)]), "?"] : "")
    : h("p", { id: "search-summary" }, t("search.results", { count: body.total, q, sources: body.sources.map(sourceName).join(", ") }));
  show(t("search.titleFor", { q }), summary,
    ...groups.map((g) => h("section", { class: "results", "aria-label": sourceName(g.source) },
      h("h2", {}, sourceName(g.source)),
      h("ul", { class: "cards" }, g.results.map(resultItem)))),
    pages > 1 ? h("nav", { class: "pager", "aria-label": t("pages") },
      h("button", { type: "button", disabled: page === 0, onclick: () => go(page - 1) }, t("page.previous")),
      h("span", {}, t("page.of", { page: page + 1, pages })),
      h("button", { type: "button", disabled: page + 1 >= pages, onclick: () => go(page + 1) }, t("page.next"))) : null);
}

// A Mandarin entry: each reading with its speech and, signed in, a button that saves that
// reading, and one that saves every reading of a title that has several.
async function moePage(title) {
  const [body, library] = await Promise.all([catalog.moe(title), state.user ? me.library().catch(() => null) : null]);
  const saved = new Set((library?.items ?? []).filter((i) => i.source === "moe").map((i) => `${i.entry}#${i.reading}`));
  const saveButton = (e, r) => {
    const reading = r.pinyin ?? r.bopomofo;
    if (!state.user || !reading) return null;
    const already = saved.has(`${e.title}#${reading}`);
    const names = { word: e.title, reading };
    return h("button", { type: "button", class: already ? "save-reading" : "save-reading primary", "data-reading": reading, disabled: already,
                         onclick: async (ev) => {
      // currentTarget is only set while the event is dispatched: keep the button before awaiting.
      const button = ev.currentTarget;
      button.disabled = true;
      const r = await me.saveMandarin(e.title, reading);
      say(t(r.added > 0 ? "word.savedStatus" : "word.already", { word: `${e.title} ${reading}` }));
      button.textContent = t("moe.saved", names);
      button.classList.remove("primary");
    } }, t(already ? "moe.saved" : "moe.save", names));
  };
  const saveAll = (e) => {
    const readings = e.readings.map((r) => r.pinyin ?? r.bopomofo).filter(Boolean);
    if (!state.user || readings.length < 2) return null;
    const all = readings.every((r) => saved.has(`${e.title}#${r}`));
    return h("p", {}, h("button", { type: "button", class: all ? "save-all" : "save-all primary", disabled: all, onclick: async (ev) => {
      const button = ev.currentTarget;
      button.disabled = true;
      await me.saveAllReadings(e.title);
      say(t("moe.savedAll", { word: e.title }));
      button.textContent = t("moe.savedAll", { word: e.title });
      button.classList.remove("primary");
      for (const one of document.querySelectorAll("button.save-reading")) {
        one.disabled = true;
        one.textContent = t("moe.saved", { word: e.title, reading: one.dataset.reading });
        one.classList.remove("primary");
      }
    } }, t(all ? "moe.savedAll" : "moe.saveAll", { word: e.title, count: readings.length })));
  };
  show(body.title, ...body.entries.map((e) =>
    h("article", { class: "card moe" },
      h("p", { class: "han", lang: "zh-Hant" }, e.title),
      saveAll(e),
      e.radical ? h("p", {}, t("moe.radical", { radical: e.radical, strokes: e.strokeCount, rest: e.nonRadicalStrokeCount })) : null,
      ...e.readings.map((r) => h("section", { class: "reading" },
        h("h2", {}, [r.pinyin, r.bopomofo].filter(Boolean).join("  ")),
        r.pinyin ? mandarinButtons(e.title, r.pinyin) : null,
        saveButton(e, r),
        h("ol", {}, r.groups.flatMap((g) => g.definitions.map((d) =>
          h("li", { lang: "zh-Hant" }, g.partOfSpeech ? h("span", { class: "pos" }, `(${g.partOfSpeech}) `) : null, d.text,
            d.examples.length ? h("div", { class: "pos" }, d.examples.join(" ")) : null)))))))),
    state.user ? null : h("p", {}, h("a", { href: "#/signin" }, t("nav.signin")), t("word.signinToSave")));
}

// Who made the pictures and the voices, with their licences (CC BY-SA asks that each be credited
// where it is shown), a drawing of each set beside its name.
function creditsPage() {
  const sample = (image) => h("img", { class: "drawing", src: `/pictures/${image}`, alt: "", width: 64, height: 64 });
  const licence = (name, url) => h("a", { href: url, rel: "license" }, name);
  const credit = (image, title, text, ...links) => h("li", { class: "card credit" },
    image ? sample(image) : null, h("h3", {}, title), h("p", {}, text, " ", ...links));
  show(t("credits.title"),
    h("p", {}, t("credits.intro")),
    h("section", {}, h("h2", {}, t("credits.pictures")), h("ul", { class: "credits" },
      credit("openmoji/1F408.svg", "OpenMoji", t("credits.openmoji"), h("a", { href: "https://openmoji.org/" }, "openmoji.org"), " · ",
        licence("CC BY-SA 4.0", "https://creativecommons.org/licenses/by-sa/4.0/")),
      credit("mulberry/desk.svg", "Mulberry Symbols", t("credits.mulberry"), h("a", { href: "https://mulberrysymbols.org/" }, "mulberrysymbols.org"), " · ",
        licence("CC BY-SA 4.0", "https://creativecommons.org/licenses/by-sa/4.0/")))),
    h("section", {}, h("h2", {}, t("credits.voices")), h("ul", { class: "credits" },
      credit(null, "🧑 Art4Apps", t("credits.art4apps"), h("a", { href: "http://www.art4apps.org/" }, "art4apps.org"), " · ",
        licence("CC BY-SA 3.0", "https://creativecommons.org/licenses/by-sa/3.0/")),
      credit(null, "🔤 GCompris", t("credits.letters"), licence("GPL 3.0", "https://www.gnu.org/licenses/gpl-3.0.html")),
      credit(null, "🤖 hibari-tts", t("credits.neural"), licence("Apache 2.0", "https://www.apache.org/licenses/LICENSE-2.0")),
      credit(null, "🤖 eSpeak NG", t("credits.espeak"), licence("GPL 3.0", "https://www.gnu.org/licenses/gpl-3.0.html")))),
    h("section", {}, h("h2", {}, t("credits.words")), h("ul", { class: "credits" },
      credit(null, "教育部重編國語辭典修訂本", t("credits.moe"), licence("CC BY-ND 3.0 TW", "https://creativecommons.org/licenses/by-nd/3.0/tw/")))));
}

// MARK: signed in

async function signInPage() {
  const error = h("p", { class: "error", role: "alert", hidden: true });
  const name = h("input", { id: "name", name: "username", autocomplete: "username", required: true });
  const password = h("input", { id: "password", name: "password", type: "password", autocomplete: "current-password", required: true });
  const form = h("form", { class: "signin", onsubmit: async (e) => {
    e.preventDefault();
    error.hidden = true;
    try {
      const who = await session.signIn(name.value, password.value);
      signedIn(who);
      await learnerLanguage();
      location.hash = "#/review";
    } catch (err) {
      error.textContent = err.status === 401 ? t("signin.wrong") : failureText(err);
      error.hidden = false;
      password.select();
    }
  } },
  h("label", { for: "name" }, t("signin.name"), name),
  h("label", { for: "password" }, t("signin.password"), password),
  error,
  h("button", { type: "submit", class: "primary" }, t("signin.button")));
  // The other ways in: an adult's new account, a child's pictures.
  show(t("signin.title"), form,
    h("ul", { class: "ways-in" },
      h("li", {}, h("a", { class: "button big", href: "#/signup", id: "to-signup" }, t("signin.adult"))),
      h("li", {}, h("a", { class: "button big", href: "#/kids", id: "to-kids" }, t("signin.child")))));
  name.focus();
}

// A child (signed in with pictures) is told apart on this device: their session has no adult
// pages (the server refuses them too), so the navigation leaves them out.
function signedIn(who) {
  state.user = who;
  if (who) localStorage.setItem("vocab.user", JSON.stringify({ id: who.id, name: who.name, child: !!who.child }));
  else {
    localStorage.removeItem("vocab.user");
    // What a child's words were, kept for offline use, is theirs: the next child on this device does not see it.
    for (const key of Object.keys(localStorage)) if (key.startsWith("vocab.week.")) localStorage.removeItem(key);
  }
  setCSRF(who?.csrf ?? null);
  document.querySelectorAll("[data-signed-in]").forEach((n) => { n.hidden = !who; });
  document.querySelectorAll("[data-signed-out]").forEach((n) => { n.hidden = !!who; });
  document.querySelectorAll("[data-adult]").forEach((n) => { n.hidden = !who || !!who.child; });
  document.querySelectorAll("[data-child]").forEach((n) => { n.hidden = !who?.child; });
  document.getElementById("who").textContent = who ? `(${who.name})` : "";
  childView();
}

// What a child meets: a child's account, or an adult's with child mode on for this family device.
// Its pages are the child's home, games and cards; no search box, no level switch, no library pages.
const CHILD_MODE = "vocab.childMode";
function isChild() { return !!state.user?.child || (!!state.user && localStorage.getItem(CHILD_MODE) === "on"); }
function childView() {
  const child = isChild();
  document.body.classList.toggle("child", child);
  document.querySelectorAll("[data-home]").forEach((n) => { n.hidden = !child; });
}

// An adult turns child mode on for a family device (it stays on this device only), and off again
// from the same switch on the cards page.
function childModeSwitch() {
  return h("label", { class: "switch", id: "child-mode-switch" },
    h("input", { type: "checkbox", id: "child-mode", checked: isChild(), onchange: (e) => {
      localStorage.setItem(CHILD_MODE, e.currentTarget.checked ? "on" : "off");
      childView();
      say(t(e.currentTarget.checked ? "childMode.on" : "childMode.off"));
    } }), " ", t("childMode.switch"));
}

async function requireUser() {
  if (state.user) return true;
  location.hash = "#/signin";
  return false;
}

async function libraryPage() {
  if (!(await requireUser())) return;
  const body = await me.library();
  const rows = body.items.map((item) => h("li", { class: "card" },
    h("h2", {}, item.source === "catalog" ? h("a", { href: `#/word/${enc(item.word)}` }, item.word)
      : item.source === "moe" ? h("a", { href: `#/moe/${enc(item.entry)}`, lang: "zh-Hant" }, item.word) : item.word),
    item.content.pinyin ? h("p", { class: "pinyin" }, [item.content.pinyin, item.content.bopomofo].filter(Boolean).join("  ")) : null,
    h("p", { lang: item.source === "moe" ? "zh-Hant" : undefined }, [item.content.vi, item.content.senses?.[0]?.text].filter(Boolean).join(" — ")),
    h("p", { class: "pos" }, t("library.due", { phase: t(`phase.${item.card.phase}`), when: when(item.card.due) })),
    h("button", { type: "button", "aria-label": t("library.removeWord", { word: item.word }), onclick: async () => {
      await me.remove(item.id);
      say(t("library.removed", { word: item.word }));
      route();
    } }, t("library.remove"))));
  if (body.items.length === 0) return show(t("library.title"), h("p", {}, t("library.empty")), await startPanel());
  show(t("library.title"), h("p", {}, t("library.count", { count: body.items.length })),
    h("p", { class: "actions" }, h("a", { href: "#/play/mine", class: "button primary", id: "play-mine" }, t("game.playMine"))),
    h("ul", { class: "cards" }, rows));
}

// The first sets a new learner is offered: topics a young child knows, with pictures.
const STARTER_SETS = ["animals", "colours", "food-and-drink", "toys", "body-and-face", "numbers"];

// A new learner's way in: one tap adds a topic's words at their level and starts reviewing.
async function startPanel() {
  const level = state.level || "starters";
  const list = await catalog.categories(level);
  const sets = list.categories.filter((c) => STARTER_SETS.includes(c.id) && c.wordCount > 0);
  const progress = h("p", { id: "start-progress", role: "status" });
  const add = async (c, button) => {
    button.disabled = true;
    progress.textContent = t("start.adding", { set: categoryName(c) });
    let saved;
    try {
      const words = await catalog.words(c.id, level, 1000, 0);
      // By entry, all in one request: saving by headword would add its other senses too ("fish · catch fish").
      saved = await me.saveEntries(words.words.map((w) => w.id));
    } catch (e) {
      button.disabled = false;
      progress.textContent = failureText(e);
      return;
    }
    state.notice = t("start.added", { count: saved.items.length, set: categoryName(c), level: LEVELS[level] });
    if (location.hash === "#/review") route(); else location.hash = "#/review";
  };
  return h("section", { class: "start", id: "start" },
    h("h2", {}, t("start.title")),
    h("p", {}, t("start.help", { level: LEVELS[level] })),
    h("ul", { class: "grid" }, sets.map((c) =>
      h("li", {}, h("button", { type: "button", class: "tile", "data-set": c.id, style: `--tile:${c.color}`, onclick: (e) => add(c, e.currentTarget) },
        h("span", { class: "emoji", "aria-hidden": "true" }, c.icon),
        h("span", { class: "en" }, c.name.en),
        h("span", { class: "vi", lang: "vi" }, c.name.vi),
        h("span", { class: "count" }, t("words.count", { count: c.wordCount })))))),
    progress);
}

function when(seconds) {
  const d = seconds * 1000 - Date.now();
  if (d <= 60_000) return t("when.now");
  const min = Math.round(d / 60_000);
  if (min < 60) return t("when.minutes", { n: min });
  const hours = Math.round(min / 60);
  if (hours < 24) return t("when.hours", { n: hours });
  return t("when.days", { n: Math.round(hours / 24) });
}

// Words a child knows for FSRS's four ratings (Again, Hard, Good, Easy: the same meaning), with
// the rating each sends. A child signed in with pictures gets two big choices: Again and Good.
const RATINGS = [["again", "review.again", 1], ["hard", "review.hard", 2], ["good", "review.good", 3], ["easy", "review.easy", 4]];
const CHILD_RATINGS = [["again", "review.notYet", 1], ["good", "review.knewIt", 3]];

// A card's word, spoken: the catalog's clip in the card's accent, or the Mandarin reading.
function sayCard(c, button) {
  if (c.source === "catalog") return play(c.front, cardAccent(c), button, undefined, true);
  if (c.source === "moe") return playMandarin(c.front, c.pinyin, button);
}

// The buttons that say a card's word again, at its pace and slower.
function cardSoundButtons(c) {
  if (c.source === "catalog") return playButtons(c.front);
  if (c.source === "moe") return mandarinButtons(c.front, c.pinyin);
  return null;
}
// The keys of the page shown (review, a game); cleared by every navigation.
let pageKeys = null;

async function reviewPage() {
  if (!(await requireUser())) return;
  await flushQueue(me.answer).catch(() => {});
  let batch;
  try {
    batch = await me.next(10);
    localStorage.setItem("vocab.queue", JSON.stringify(batch));
    // The clips of these cards are kept by the service worker for review without the server.
    const urls = batch.cards.map((c) => clipURL(c.content)).filter(Boolean);
    navigator.serviceWorker?.controller?.postMessage({ type: "keep", urls });
  } catch (e) {
    if (e.status !== undefined) throw e;
    batch = JSON.parse(localStorage.getItem("vocab.queue") ?? "null");
    if (!batch) throw e;
    say(t("review.offline"));
  }
  let cards = batch.cards;
  let i = 0;
  const child = isChild();
  // A card says its word as it appears, so that a child who cannot read yet can answer by ear,
  // unless the learner turned it off (an adult, below).
  const settings = state.user?.settings ?? (await me.get().catch(() => null))?.settings;
  let sound = settings?.cardSound !== false;
  const area = h("section", { class: "review", "aria-live": "polite" });
  const soundSwitch = child ? null : h("label", { class: "switch", id: "card-sound-switch" },
    h("input", { type: "checkbox", id: "card-sound", checked: sound, onchange: async (e) => {
      sound = e.currentTarget.checked;
      if (state.user) state.user.settings = { ...(state.user.settings ?? {}), cardSound: sound };
      await me.setCardSound(sound).catch(() => {});
    } }), " ", t("review.cardSound"));
  show(t("review.title"), soundSwitch ?? "", state.user?.child ? "" : childModeSwitch(), area);
  // The session's cards: one rated "try again" that is due again comes back in it, new ones wait.
  const session = new Set(cards.map((c) => c.item));
  const done = async () => {
    const more = await me.next(10).catch(() => null);
    const back = more?.cards.filter((c) => session.has(c.item)) ?? [];
    if (back.length) {
      batch = { ...more, cards: back };
      cards = back;
      i = 0;
      localStorage.setItem("vocab.queue", JSON.stringify(batch));
      return showCard();
    }
    // When the next card is due, asked now: not "nothing is due" while one returns in a minute.
    if (more) batch = more;
    // Nothing reviewed yet and nothing waiting: a new learner, who needs a way in, not "all done".
    if (cards.length === 0 && !batch.nextDue && (await me.library()).items.length === 0) {
      area.replaceChildren(await startPanel());
      return;
    }
    const next = batch.nextDue ? t("review.nextDue", { when: when(batch.nextDue) }) : t("review.nothingDue");
    area.replaceChildren(h("p", { id: "done" }, t("review.done", { next })),
      h("p", { class: "actions" }, h("a", { href: "#/play/mine", class: "button primary", id: "play-mine" }, t("game.playMine")),
        // A child goes back to the words their class set.
        state.user?.child ? h("a", { href: "#/week", class: "button", id: "to-week" }, t("week.title")) : null),
      h("p", {}, h("a", { href: "#/progress" }, t("review.seeProgress"))),
      h("p", {}, h("a", { href: "#/library" }, t("review.addMore"))));
  };
  const showCard = () => {
    if (i >= cards.length) return done();
    const card = cards[i];
    const c = card.content;
    const reveal = h("button", { type: "button", class: "primary big", id: "reveal", onclick: () => back() }, t("review.show"), h("kbd", {}, "Space"));
    area.replaceChildren(
      h("p", {}, t("review.toGo", { count: cards.length - i, phase: t(`phase.${card.phase}`) })),
      // replaceChildren would print a card without a picture's null as "null".
      picture({ picture: c.picture, image: c.image, word: c.front }, true) ?? "",
      // Mandarin characters big, like the entry's page; a catalog word with its sense.
      c.source === "moe" ? h("p", { class: "front han", id: "front", lang: "zh-Hant" }, c.front)
        : h("p", { class: "front", id: "front", lang: "en" }, c.front, senseLabel(c.sense)),
      // Sound first: the word again, and slowly, before the answer.
      cardSoundButtons(c) ?? "",
      reveal);
    reveal.focus();
    state.revealed = false;
    if (sound) sayCard(c);
  };
  const back = () => {
    if (state.revealed || i >= cards.length) return;
    state.revealed = true;
    const card = cards[i];
    const c = card.content;
    const details = h("div", { class: "back", id: "back" },
      c.ipa ? ipaLine(c.ipa) : null,
      c.pinyin || c.bopomofo ? h("p", { class: "pinyin", id: "pinyin" }, [c.pinyin, c.bopomofo].filter(Boolean).join("  ")) : null,
      c.vi ? h("p", { lang: "vi" }, c.vi) : null,
      ...(c.senses ?? []).map((s) => h("p", { lang: c.source === "moe" ? "zh-Hant" : "en" },
        s.partOfSpeech ? h("span", { class: "pos", lang: "en" }, `(${s.partOfSpeech}) `) : null, s.text)),
      c.example ? h("p", {}, h("q", {}, c.example)) : null);
    // Two big choices for a child, without the intervals; FSRS's four for an adult.
    const buttons = h("div", { class: child ? "ratings two" : "ratings", role: "group", "aria-label": t("review.howWell") },
      (child ? CHILD_RATINGS : RATINGS).map(([key, label, value]) => h("button", { type: "button", "data-rating": key, onclick: () => rate(value) },
        h("span", {}, child ? null : h("kbd", {}, String(value)), ` ${t(label)}`), child ? null : h("small", {}, when(card.next[key])))));
    area.querySelector("#reveal").replaceWith(details, buttons);
    buttons.querySelector('[data-rating="good"]').focus();
    // Heard already when the card said it; otherwise now, with its answer.
    if (!sound) sayCard(c);
  };
  const rate = async (rating) => {
    if (!state.revealed) return;
    state.revealed = false;
    const card = cards[i];
    const request = { item: card.item, rating, version: card.version, clientId: crypto.randomUUID() };
    try {
      await me.rate(request);
    } catch (e) {
      if (e.status === 409) say(t("review.conflict"));
      // Queued with the time it was made: after a day offline it still counts on its own day.
      else if (e.status === undefined) { await queueRating({ ...request, reviewedAt: Date.now() / 1000 }); say(t("review.queued", { count: await pendingCount() })); }
      else throw e;
    }
    i += 1;
    localStorage.setItem("vocab.queue", JSON.stringify({ ...batch, cards: cards.slice(i) }));
    showCard();
  };
  pageKeys = (e) => {
    if (e.target.closest("input, textarea")) return;
    if ((e.key === " " || e.key === "Enter") && !state.revealed && e.target.id !== "reveal") { e.preventDefault(); back(); }
    else if (e.key === " " && e.target.id === "reveal") { e.preventDefault(); back(); }
    else if (["1", "2", "3", "4"].includes(e.key) && state.revealed && !child) { e.preventDefault(); rate(Number(e.key)); }
  };
  showCard();
}

async function progressPage() {
  if (!(await requireUser())) return;
  const [body, list] = await Promise.all([me.progress(), catalog.categories()]);
  // Categories by their names, not their ids ("Sports and leisure", not "sports-and-leisure").
  const names = Object.fromEntries(list.categories.map((c) => [c.id, categoryName(c)]));
  const named = (id) => names[id] ?? id;
  const r = body.report;
  const days = r.reviewsPerDay.map((d) => ({ label: d.date.slice(8), value: d.reviews }));
  const levels = Object.keys(LEVELS).filter((l) => !state.level || l === state.level);
  const rows = body.categories.filter((c) => levels.includes(c.level) && (c.saved > 0 || c.learned > 0));
  const total = r.reviewsPerDay.reduce((a, d) => a + d.reviews, 0);
  show(t("progress.title"),
    h("ul", { class: "stats", id: "stats" },
      h("li", {}, h("strong", { id: "due-today" }, String(r.dueToday)), t("progress.dueToday")),
      h("li", {}, h("strong", {}, String(r.dueTomorrow)), t("progress.dueTomorrow")),
      h("li", {}, h("strong", {}, String(r.dueNext7Days)), t("progress.dueWeek")),
      h("li", {}, h("strong", { id: "items" }, String(r.items)), t("progress.saved")),
      h("li", {}, h("strong", { id: "learned" }, String(r.learned)), t("progress.learned")),
      h("li", {}, h("strong", { id: "streak" }, String(r.streak)), t("progress.streak"))),
    h("h2", {}, t("progress.forecast")),
    h("figure", {}, barChart({ title: t("progress.forecastChart"), width: 360, height: 160,
      bars: [{ label: t("progress.today"), value: r.dueToday }, { label: t("progress.tomorrow"), value: r.dueTomorrow }, { label: t("progress.week"), value: r.dueNext7Days }] })),
    h("h2", {}, t("progress.perDay")),
    h("figure", {}, barChart({ title: t("progress.perDayChart", { count: total }), bars: days, labelEvery: 5 }),
      h("figcaption", { id: "reviews-total" }, t("progress.perDayTotal", { count: total, today: r.reviewsPerDay.at(-1)?.reviews ?? 0 }))),
    h("h2", {}, t("progress.retention")),
    r.retention === undefined ? h("p", {}, t("progress.noRetention"))
      : h("figure", {}, meter({ title: t("progress.retentionChart"), value: r.retention }), h("figcaption", {}, t("progress.retentionCount", { count: r.reviewsInRetention }))),
    h("h2", {}, t("progress.byCategory")),
    rows.length === 0 ? null : h("figure", {}, rowChart({
      title: t("progress.byCategoryChart"),
      bars: rows.map((c) => ({ label: `${named(c.category)} · ${LEVELS[c.level]}`, value: c.saved })) })),
    rows.length === 0 ? h("p", {}, t("progress.saveFirst")) :
      h("table", {}, h("thead", {}, h("tr", {}, h("th", { scope: "col" }, t("progress.category")), h("th", { scope: "col" }, t("progress.level")),
        h("th", { scope: "col" }, t("progress.savedColumn")), h("th", { scope: "col" }, t("progress.learnedColumn")), h("th", { scope: "col" }, t("progress.words")))),
      h("tbody", {}, rows.map((c) => h("tr", {}, h("td", {}, named(c.category)), h("td", {}, LEVELS[c.level]),
        h("td", {}, String(c.saved)), h("td", {}, String(c.learned)), h("td", {}, String(c.words)))))));
}

// MARK: routing

// What the games use of this page (games.js).
// The letter names look-and-spell says (Audio/letters), on a player of their own so that the
// word's player still holds the word.
const letterPlayer = new Audio();
letterPlayer.id = "letter-player";
document.body.append(letterPlayer);
function playLetter(c) {
  letterPlayer.src = `/letters/${c}.ogg`;
  letterPlayer.dataset.letter = c;
  letterPlayer.play().catch(() => {});
}

const ui = {
  h, show, say, play, playLetter, picture, drawing: (w) => drawing(h, w), senseLabel, categoryName, state, LEVELS, STARTER_SETS, requireUser, signedIn, learnerLanguage,
  keys: (handler) => { pageKeys = handler; },
};

// Pages being drawn: one that waited on the server longer than the next tap draws over the page
// that tap opened, so the last to finish draws again the page the address now names.
let pagesDrawing = 0;

async function route() {
  const started = location.hash;
  pagesDrawing += 1;
  try {
    await draw();
  } finally {
    pagesDrawing -= 1;
    if (pagesDrawing === 0 && location.hash !== started) route();
  }
}

async function draw() {
  pageKeys = null;
  // A query after the path (#/play/listen/animals?level=starters) holds a page's options.
  const [path, search] = location.hash.replace(/^#\/?/, "").split("?");
  const query = new URLSearchParams(search ?? "");
  const parts = path.split("/").map(decodeURIComponent);
  const [page, a, b] = parts;
  // A page's own level (a game's address, ?level=movers) is the level the header shows.
  const level = query.get("level");
  if (level !== null && (level === "" || LEVELS[level]) && level !== state.level) chooseLevel(level);
  document.querySelectorAll("nav a").forEach((link) => {
    const target = link.getAttribute("href").replace(/^#\/?/, "").split("/")[0];
    if (target === (page === "class" ? "classes" : page ?? "")) link.setAttribute("aria-current", "page"); else link.removeAttribute("aria-current");
  });
  // A message meant for the next page (e.g. "Signed out.") survives the navigation once.
  say(state.notice ?? "");
  state.notice = null;
  try {
    switch (page ?? "") {
      case "": {
        if (!isChild()) return await categoriesPage();
        // A child's home is their week: this week's words, the games and the cards, as tiles.
        const { page: classPage } = await import("./classes.js");
        return await classPage(ui, "week");
      }
      case "category": return await categoryPage(a, Number(b ?? 0) || 0);
      case "print": return await printPage(a);
      case "word": return await wordPage(a);
      case "search": return await searchPage(a, Number(b ?? 0) || 0);
      case "moe": return await moePage(a);
      case "signin": return await signInPage();
      case "library": return await libraryPage();
      case "review": return await reviewPage();
      case "progress": return await progressPage();
      case "credits": return creditsPage();
      case "signup": case "classes": case "class": case "kids": case "week": {
        // The class pages are loaded when first opened, like the games.
        const { page: classPage } = await import("./classes.js");
        return await classPage(ui, page, a, b);
      }
      case "say": {
        const { sayPage } = await import("./say.js");
        return await sayPage(ui, a, b);
      }
      case "play": {
        // The games are loaded when first played: the first page does not carry them.
        const { gamePage, chooserPage } = await import("./games.js");
        return await (b === undefined ? chooserPage(ui, a, query) : gamePage(ui, a, b, query));
      }
      default: show(t("notFound.title"), h("p", {}, h("a", { href: "#/" }, t("notFound.back"))));
    }
  } catch (e) {
    if (e instanceof APIError && e.status === 401) { signedIn(null); location.hash = "#/signin"; return; }
    show(t("error.title"), h("p", { class: "error", role: "alert" },
      failureText(e)));
  }
}

document.addEventListener("keydown", (e) => pageKeys?.(e));
window.addEventListener("hashchange", route);
window.addEventListener("online", () => {
  flushQueue(me.answer).then((n) => n && say(t("review.sent", { count: n }))).catch(() => {});
  if (localStorage.getItem("vocab.lang.pending")) learnerLanguage();
});

// The level switch in the header: the chosen level is kept on the device and marks its button.
const levelRadios = [...document.querySelectorAll('input[name="level"]')];
function chooseLevel(level) {
  state.level = level;
  localStorage.setItem("vocab.level", level);
  for (const radio of levelRadios) radio.checked = radio.value === level;
}
chooseLevel(state.level);
for (const radio of levelRadios) {
  radio.addEventListener("change", () => {
    chooseLevel(radio.value);
    // A page whose address names a level (a game) moves to the new one; others are drawn again.
    const [path, search] = location.hash.split("?");
    const query = new URLSearchParams(search ?? "");
    if (!query.has("level")) return route();
    if (state.level) query.set("level", state.level); else query.delete("level");
    location.hash = query.toString() ? `${path}?${query}` : path;
  });
}

document.getElementById("signout").addEventListener("click", async () => {
  // A child signs out on a shared device: the next child signs in with pictures.
  const next = state.user?.child ? "#/kids" : "#/";
  try { await session.signOut(); } finally {
    signedIn(null);
    state.notice = t("signout.done");
    if (location.hash === next) route(); else location.hash = next;
  }
});

// The interface's language: the header now, each page as it is drawn; the switch keeps the choice.
const languageButton = document.getElementById("language");
const showLanguage = () => {
  translatePage();
  languageButton.lang = language() === "vi" ? "en" : "vi";
};
languageButton.addEventListener("click", () => {
  setLanguage(language() === "vi" ? "en" : "vi");
  showLanguage();
  route();
  // Signed in, the choice is the learner's, on every device: kept on the server. Offline it
  // waits on this device (for this learner) and is sent when the server answers again.
  if (state.user) {
    localStorage.setItem("vocab.lang.pending", JSON.stringify({ user: state.user.id, language: language() }));
    learnerLanguage();
  }
});
showLanguage();

// The signed-in learner's language: a choice made on this device and not yet sent is sent (it is
// the newest); else the one the server keeps for the learner, if any, wins over this device's.
// One exchange at a time, so two quick switches reach the server in order.
let languageSync = Promise.resolve();
function learnerLanguage() {
  languageSync = languageSync.then(async () => {
    if (!state.user) return;
    const pending = localStorage.getItem("vocab.lang.pending");
    const choice = JSON.parse(pending ?? "null");
    try {
      if (choice?.user === state.user.id) {
        await me.setLanguage(choice.language);
        if (localStorage.getItem("vocab.lang.pending") === pending) localStorage.removeItem("vocab.lang.pending");
        return;
      }
      const mine = await me.get();
      const stored = mine.settings?.language;
      if (stored && stored !== language()) {
        setLanguage(stored);
        showLanguage();
      }
      // Review days start at 4 am in the learner's zone: one who has none yet gets this
      // device's, so the cards due "tomorrow" are there on their morning, not the server's.
      const zone = Intl.DateTimeFormat().resolvedOptions().timeZone;
      if (!mine.settings?.timeZone && zone) await me.setTimeZone(zone).catch(() => {});
    } catch (e) {
      // Offline, the device's language stays and a choice waits; one the server refuses is dropped.
      if (e.status !== undefined && e.status !== 401 && choice) localStorage.removeItem("vocab.lang.pending");
    }
  });
  return languageSync;
}

if ("serviceWorker" in navigator) navigator.serviceWorker.register("/sw.js").catch(() => {});

try {
  // Only a device someone signed in on asks the server: a new visitor's question would be a 401,
  // which the browser logs as an error.
  // Whether the session is a child's was noted on this device at sign-in (and the name they typed).
  const noted = JSON.parse(localStorage.getItem("vocab.user") ?? "null");
  const who = noted ? await session.current() : null;
  signedIn(who && (noted.child && noted.id === who.id ? { ...who, name: noted.name, child: true } : who));
} catch (e) {
  // Offline: the learner signed in before, until the server says otherwise.
  const known = e instanceof APIError ? null : JSON.parse(localStorage.getItem("vocab.user") ?? "null");
  signedIn(known && { ...known, csrf: sessionStorage.getItem("vocab.csrf") });
}
await learnerLanguage();
await route();
flushQueue(me.answer).catch(() => {});
performance.mark("vocab-ready");
document.documentElement.dataset.ready = "true";
