// Games in the Young Learners exams' own formats, for a category at a level or the learner's own
// words: listen and choose (hear a word, tap one of four pictures), look and spell (a picture and
// shuffled letter tiles) and match (pictures with their words). Only words with a picture play.
//
// Every word a round asks about is answered once, and signed in that answer is a review of it:
// right the first time rates it Good, else Again, so games feed the schedule. A category's words
// are saved to the library as they are answered (me.answer); offline the rating waits in the same
// queue as review's. A wrong answer is never punished: the right one is shown, and the round goes
// on to a score and stars.
import { catalog, me, enc } from "./api.js";
import { t } from "./i18n.js";
import { queueRating, pendingCount } from "./offline.js";
import { pictured, KINDS } from "./pictures.js";

export const GAMES = {
  listen: { icon: "👂", name: "game.listen", help: "game.listenHelp", color: "#2A9D8F" },
  spell: { icon: "🔤", name: "game.spell", help: "game.spellHelp", color: "#E9C46A" },
  match: { icon: "🧩", name: "game.match", help: "game.matchHelp", color: "#E76F51" },
  say: { icon: "🎤", name: "game.say", help: "game.sayHelp", color: "#8338EC" },
};
const MINIMUM = 4;    // four pictures to choose from
const ROUND = 5;      // questions in a round of listen and choose, and of look and spell
const PAIRS = 4;      // pairs on a match board
// Where a learner with too few pictured words is sent: topics full of pictures.
const PICTURED = ["animals", "food-and-drink", "toys", "clothes", "transport", "colours"];
const MINE = "vocab.games.mine";   // the learner's pictured words, kept for a game offline

function shuffle(list) {
  const a = [...list];
  for (let i = a.length - 1; i > 0; i -= 1) {
    const j = Math.floor(Math.random() * (i + 1));
    [a[i], a[j]] = [a[j], a[i]];
  }
  return a;
}

// One word per picture and per spelling: two pictures of one word, or one picture of two words
// (grey and gray), would make two right answers.
function distinct(words) {
  const seenWords = new Set(), seenPictures = new Set();
  return words.filter((w) => {
    if (!pictured(w) || seenWords.has(w.word) || seenPictures.has(w.image ?? w.picture)) return false;
    seenWords.add(w.word);
    seenPictures.add(w.image ?? w.picture);
    return true;
  });
}

function levelOf(ui, query) {
  const level = query.get("level") ?? ui.state.level;
  return ui.LEVELS[level] ? level : "";
}

const levelSuffix = (level) => (level ? `?level=${level}` : "");


// The words a game can use: {word, picture, vi, sense, entry or item}, with the page's title.
async function pool(ui, source, level) {
  if (source === "mine") {
    let items;
    try {
      items = (await me.library()).items.filter((i) => i.source === "catalog" && pictured(i.content))
        // The most overdue first (new words are due when saved), so a round reviews what is due.
        .sort((a, b) => a.card.due - b.card.due)
        .map((i) => ({ word: i.word, picture: i.content.picture, image: i.content.image, vi: i.content.vi, sense: i.content.sense, item: i.id }));
      localStorage.setItem(MINE, JSON.stringify(items));
    } catch (e) {
      if (e.status !== undefined) throw e;
      items = JSON.parse(localStorage.getItem(MINE) ?? "null");
      if (!items) throw e;
      ui.say(t("game.offline"));
    }
    // A round takes the first words of the pool: the most due first, mixed within.
    return { title: t("game.myWords"), words: distinct(items), back: "#/library", mine: true };
  }
  const kind = KINDS[source];
  const body = kind ? await catalog.partOfSpeech(kind.pos, level || undefined, 1000, 0) : await catalog.words(source, level || undefined, 1000, 0);
  const words = shuffle(body.words.filter(pictured).map((w) => ({
    word: w.word, picture: w.picture, image: w.image, vi: w.vi, sense: w.sense, entry: w.id,
  })));
  if (kind) {
    return { title: `${kind.icon} ${t(kind.name)} · ${ui.LEVELS[level] ?? t("level.allLevels")}`, words: distinct(words), back: "#/" };
  }
  return {
    title: `${body.category.icon} ${ui.categoryName(body.category)} · ${ui.LEVELS[level] ?? t("level.allLevels")}`,
    words: distinct(words), back: `#/category/${enc(source)}`, category: body.category,
  };
}

// The three games for a category (with its level) or for my words.
export async function chooserPage(ui, source, query) {
  const { h } = ui;
  if (source === "mine" && !(await ui.requireUser())) return;
  const level = levelOf(ui, query);
  let subtitle = t("game.myWords");
  if (KINDS[source]) {
    subtitle = `${KINDS[source].icon} ${t(KINDS[source].name)} · ${ui.LEVELS[level] ?? t("level.allLevels")}`;
  } else if (source !== "mine") {
    const list = await catalog.categories(level || undefined);
    const c = list.categories.find((x) => x.id === source);
    subtitle = c ? `${c.icon} ${ui.categoryName(c)} · ${ui.LEVELS[level] ?? t("level.allLevels")}` : source;
  }
  ui.show(t("game.title"),
    h("p", { class: "game-sub" }, subtitle),
    // Say it is heard by the server for a signed-in learner: offered only then.
    h("ul", { class: "grid games", id: "games" }, Object.entries(GAMES).filter(([id]) => id !== "say" || ui.state.user).map(([id, g]) =>
      h("li", {}, h("a", { class: "tile game-tile", href: `#/play/${id}/${enc(source)}${levelSuffix(level)}`, "data-game": id, style: `--tile:${g.color}` },
        h("span", { class: "emoji", "aria-hidden": "true" }, g.icon),
        h("span", { class: "en" }, t(g.name)),
        h("span", { class: "vi" }, t(g.help)))))),
    h("p", {}, ratedNote(ui, source)));
}

// What happens to the answers, said before a round and after it.
function ratedNote(ui, source) {
  if (!ui.state.user) return [ui.h("a", { href: "#/signin" }, t("nav.signin")), t("game.signinNote")];
  return source === "mine" ? t("game.mineNote") : t("game.categoryNote");
}

export async function gamePage(ui, game, source, query) {
  if (!GAMES[game]) {
    ui.show(t("notFound.title"), ui.h("p", {}, ui.h("a", { href: "#/" }, t("notFound.back"))));
    return;
  }
  // Saying a word is heard by the server for a signed-in learner.
  if ((source === "mine" || game === "say") && !(await ui.requireUser())) return;
  const level = levelOf(ui, query);
  const words = await pool(ui, source, level);
  const usable = game === "spell" ? words.words.filter(spellable) : words.words;
  const round = {
    ui, game, source, level, words, usable, rated: !!ui.state.user,
    right: 0, asked: 0, missed: [], pending: [], queued: 0, refused: 0, token: {},
  };
  current = round.token;
  if (game === "say") {
    if (usable.length === 0) return tooFew(round);
    // Reviewed by the server as each word is said well; the end is the games' own.
    const { sayRound } = await import("./say.js");
    return sayRound(ui, { ...words, usable: shuffle(usable) }, ({ right, asked, area }) => {
      Object.assign(round, { right, asked, area, said: true });
      finish(round);
    });
  }
  if (usable.length < MINIMUM) return tooFew(round);
  start(round);
}

let current = null;   // the round on screen: a timer of an earlier one does nothing

function start(round) {
  const { ui } = round;
  round.right = 0;
  round.asked = 0;
  round.missed = [];
  round.pending = [];
  round.queued = 0;
  round.refused = 0;
  round.token = {};
  current = round.token;
  round.area = ui.h("section", { class: "game", id: "game", "data-game": round.game });
  ui.show(`${GAMES[round.game].icon} ${t(GAMES[round.game].name)}`, ui.h("p", { class: "game-sub" }, round.words.title), round.area);
  // On a phone the header would take half the screen: the game starts at its title.
  document.getElementById("main").scrollIntoView({ block: "start" });
  // The clips of the round are kept by the service worker, so the round can be played again offline.
  if (round.game !== "match") {
    navigator.serviceWorker?.controller?.postMessage({ type: "keep", urls: round.usable.slice(0, ROUND * 2).map((w) => catalog.audioURL(w.word, "british")) });
  }
  ({ listen, spell, match })[round.game](round);
}

// Kindly: what is missing and where to play instead.
async function tooFew(round) {
  const { ui } = round;
  const h = ui.h;
  const list = await catalog.categories(round.level || undefined).catch(() => ({ categories: [] }));
  const others = list.categories.filter((c) => PICTURED.includes(c.id) && c.id !== round.source && c.wordCount > 0);
  ui.show(`${GAMES[round.game].icon} ${t(GAMES[round.game].name)}`,
    h("p", { class: "game-sub" }, round.words.title),
    h("p", { id: "too-few", class: "kind" }, t(round.words.mine ? "game.tooFewMine" : "game.tooFew", { count: round.usable.length, minimum: MINIMUM })),
    h("h2", {}, t("game.tryCategory")),
    h("ul", { class: "grid" }, others.map((c) =>
      h("li", {}, h("a", { class: "tile", href: `#/play/${round.game}/${enc(c.id)}${levelSuffix(round.level)}`, style: `--tile:${c.color}`, "data-category": c.id },
        h("span", { class: "emoji", "aria-hidden": "true" }, c.icon),
        h("span", { class: "en" }, ui.categoryName(c)),
        h("span", { class: "count" }, t("words.count", { count: c.wordCount })))))));
}

// The answer about a word: right the first time or not. Signed in, a review of it (Good or Again),
// sent at once or, without the server, queued as review's ratings are.
function answer(round, w, right) {
  round.asked += 1;
  if (right) round.right += 1; else round.missed.push(w);
  if (!round.rated) return;
  const rating = { rating: right ? 3 : 1, clientId: crypto.randomUUID() };
  const body = w.item !== undefined ? { ...rating, item: w.item } : { ...rating, word: w.word, entry: w.entry };
  round.pending.push(me.answer(body).catch(async (e) => {
    if (e.status === undefined) {
      await queueRating({ ...body, reviewedAt: Date.now() / 1000 });
      round.queued += 1;
    } else {
      // Refused by the server: never counted as added, and told in the child's language at the end.
      round.refused += 1;
    }
  }));
}

// A clip played without being asked for: a failure is not reported (listen and choose writes the word instead).
const autoplay = (ui, word) => ui.play(word, "british", null, undefined, true);

// Runs `then` after a pause, unless another round or page came meanwhile.
function later(round, then, ms) {
  const token = round.token;
  setTimeout(() => { if (current === token && document.getElementById("game") === round.area) then(); }, ms);
}

function counter(round, n, total) {
  return round.ui.h("p", { class: "counter", id: "counter" }, t("game.counter", { n, total }));
}

function listenButtons(round, w) {
  const { ui } = round;
  return ui.h("div", { class: "plays listen" },
    ui.h("button", { type: "button", class: "play primary", id: "hear", onclick: (e) => ui.play(w.word, "british", e.currentTarget) }, t("game.hear")),
    ui.h("button", { type: "button", class: "play slow", id: "hear-slow", onclick: (e) => ui.play(w.word, "british", e.currentTarget, 0.75) }, t("play.slow")));
}

// The round's words one question at a time: ask(word, its number, how many, the next question);
// after the last, the score.
function oneByOne(round, ask) {
  const targets = shuffle(round.usable.slice(0, ROUND));
  let n = 0;
  const next = () => {
    if (n >= targets.length) return finish(round);
    n += 1;
    ask(targets[n - 1], n, targets.length, next);
  };
  next();
}

// MARK: listen and choose

function listen(round) {
  const { ui } = round;
  const h = ui.h;
  oneByOne(round, (w, n, total, question) => {
    const others = shuffle(round.usable.filter((o) => o !== w)).slice(0, MINIMUM - 1);
    const options = shuffle([w, ...others]);
    let answered = false;
    const feedback = h("p", { class: "feedback", id: "feedback", role: "status" });
    const buttons = options.map((o, i) => h("button", {
      type: "button", class: "choice", "data-word": o.word, onclick: () => choose(o, buttons[i]) },
      h("span", { class: "picture" }, ui.drawing(o)), h("kbd", {}, String(i + 1))));
    const choose = (o, button) => {
      if (answered) return;
      answered = true;
      const right = o === w;
      answer(round, w, right);
      const rightButton = buttons[options.indexOf(w)];
      rightButton.classList.add("right");
      rightButton.append(h("span", { class: "label" }, w.word));
      buttons.forEach((b) => b.setAttribute("aria-disabled", "true"));
      if (right) {
        feedback.textContent = t("game.great", { word: w.word });
        later(round, question, 1200);
      } else {
        button.classList.add("not-this");
        feedback.textContent = t("game.itWas", { word: w.word });
        autoplay(ui, w.word);
        const next = h("button", { type: "button", class: "primary next", id: "next", onclick: question }, t("game.next"));
        round.area.append(h("p", {}, next));
        next.focus();
      }
    };
    const hear = listenButtons(round, w);
    round.area.replaceChildren(
      counter(round, n, total),
      h("p", { class: "prompt" }, t("game.listenPrompt")),
      hear,
      h("ul", { class: "choices", "aria-label": t("game.pictures") }, buttons.map((b) => h("li", {}, b))),
      feedback);
    hear.querySelector("#hear").focus();
    ui.keys((e) => {
      if (e.target.closest("input, textarea") || e.altKey || e.ctrlKey || e.metaKey) return;
      const i = Number(e.key) - 1;
      if (i >= 0 && i < buttons.length) { e.preventDefault(); choose(options[i], buttons[i]); }
    });
    autoplay(ui, w.word).then((error) => {
      // Without the clip (offline and never heard), the word is written instead of spoken.
      if (error && error.name !== "NotAllowedError" && error.name !== "AbortError" && round.area.contains(hear)) {
        hear.after(h("p", { class: "written", id: "written" }, w.word));
      }
    });
  });
}

// MARK: look and spell

const LETTER = /^[a-z]$/;
// Words of 3 to 10 plain letters (spaces and hyphens are written in for the child).
function spellable(w) {
  const letters = w.word.toLowerCase().replace(/[ -]/g, "");
  return /^[a-z]+$/.test(letters) && letters.length >= 3 && letters.length <= 10;
}

function spell(round) {
  const { ui } = round;
  const h = ui.h;
  oneByOne(round, (w, n, total, question) => {
    const chars = [...w.word.toLowerCase()];
    let letters = chars.filter((c) => LETTER.test(c));
    for (let tries = 0; tries < 5 && letters.join("") === chars.filter((c) => LETTER.test(c)).join(""); tries += 1) letters = shuffle(letters);
    let pos = chars.findIndex((c) => LETTER.test(c));
    let missed = false;
    const slots = chars.map((c) => h("span", { class: LETTER.test(c) ? "slot" : "slot fixed" }, LETTER.test(c) ? "" : c));
    const feedback = h("p", { class: "feedback", id: "feedback", role: "status" });
    const tiles = letters.map((c) => h("button", { type: "button", class: "letter", "data-letter": c, onclick: (e) => tap(c, e.currentTarget) }, c));
    const tap = (c, tile) => {
      if (pos < 0) return;
      const expected = chars[pos];
      tiles.forEach((x) => x.classList.remove("hint", "nope"));
      if (c !== expected) {
        missed = true;
        // Gently: this one wiggles, the one that fits shines.
        tile?.classList.add("nope");
        tiles.find((x) => !x.hidden && x.dataset.letter === expected)?.classList.add("hint");
        feedback.textContent = t("game.spellHint");
        return;
      }
      // Each letter placed is said by its name, as the exam spells a word aloud.
      ui.playLetter(c);
      const use = tile && !tile.hidden ? tile : tiles.find((x) => !x.hidden && x.dataset.letter === c);
      const focused = document.activeElement === use;
      use.hidden = true;
      slots[pos].textContent = c;
      slots[pos].classList.add("filled");
      word.setAttribute("aria-label", t("game.slots", { count: letters.length, so: slots.map((s) => s.textContent).join("") }));
      feedback.textContent = "";
      do pos += 1; while (pos < chars.length && !LETTER.test(chars[pos]));
      if (focused) tiles.find((x) => !x.hidden)?.focus();
      if (pos >= chars.length) {
        pos = -1;
        answer(round, w, !missed);
        word.classList.add("done");
        feedback.textContent = missed ? t("game.spelled", { word: w.word }) : t("game.great", { word: w.word });
        autoplay(ui, w.word);
        hear.querySelector("#hear").focus();
        later(round, question, 1600);
      }
    };
    const hear = listenButtons(round, w);
    const word = h("p", { class: "slots", id: "slots", role: "img", "aria-label": t("game.slots", { count: letters.length, so: chars.filter((c) => !LETTER.test(c)).join("") }) }, slots);
    round.area.replaceChildren(
      counter(round, n, total),
      h("p", { class: "picture big", role: "img", "aria-label": t("game.spellPicture"), id: "spell-picture", "data-word": w.word }, ui.drawing(w)),
      word,
      h("p", { class: "prompt" }, t("game.spellPrompt")),
      h("div", { class: "letters", role: "group", "aria-label": t("game.letters") }, tiles),
      hear,
      feedback);
    tiles[0].focus();
    ui.keys((e) => {
      if (e.target.closest("input, textarea") || e.altKey || e.ctrlKey || e.metaKey) return;
      const c = e.key.toLowerCase();
      if (!LETTER.test(c)) return;
      e.preventDefault();
      tap(c, tiles.find((x) => !x.hidden && x.dataset.letter === c));
    });
  });
}

// MARK: match

function match(round) {
  const { ui } = round;
  const h = ui.h;
  const pairs = round.usable.slice(0, PAIRS);
  let selected = null;   // {w, button, side}
  let left = pairs.length;
  const feedback = h("p", { class: "feedback", id: "feedback", role: "status" });
  const done = (button) => { button.classList.add("matched"); button.setAttribute("aria-disabled", "true"); button.removeAttribute("aria-pressed"); };
  const partner = (w, side) => (side === "picture" ? words : pictures).find((b) => b.dataset.word === w.word);
  const pick = (w, button, side) => {
    if (button.classList.contains("matched")) return;
    if (!selected || selected.side === side) {
      selected?.button.setAttribute("aria-pressed", "false");
      selected = { w, button, side };
      button.setAttribute("aria-pressed", "true");
      return;
    }
    const first = selected;
    selected = null;
    first.button.setAttribute("aria-pressed", "false");
    const right = first.w === w;
    answer(round, first.w, right);
    // Right or not, the word asked about joins its partner: a wrong pick shows the right one.
    const other = partner(first.w, first.side);
    done(first.button);
    done(other);
    if (!right) {
      other.classList.add("shown");
      first.button.classList.add("shown");
      feedback.textContent = t("game.matchShown", { word: first.w.word });
    } else {
      feedback.textContent = t("game.great", { word: w.word });
    }
    autoplay(ui, first.w.word);
    left -= 1;
    if (left === 0) later(round, () => finish(round), 1200);
    else (pictures.find((b) => !b.classList.contains("matched")) ?? words.find((b) => !b.classList.contains("matched")))?.focus();
  };
  // Named by its word, as its emoji was named by the emoji's own name.
  const pictures = shuffle(pairs).map((w) => h("button", { type: "button", class: "pair picture-card", "data-word": w.word, "aria-pressed": "false", "aria-label": w.word,
    onclick: (e) => pick(w, e.currentTarget, "picture") }, h("span", { class: "picture" }, ui.drawing(w))));
  const words = shuffle(pairs).map((w) => h("button", { type: "button", class: "pair word-card", "data-word": w.word, "aria-pressed": "false", lang: "en",
    onclick: (e) => pick(w, e.currentTarget, "word") }, w.word));
  round.area.replaceChildren(
    h("p", { class: "prompt" }, t("game.matchPrompt")),
    h("div", { class: "match" },
      h("ul", { "aria-label": t("game.pictures") }, pictures.map((b) => h("li", {}, b))),
      h("ul", { "aria-label": t("game.words") }, words.map((b) => h("li", {}, b)))),
    feedback);
  pictures[0].focus();
}

// MARK: the end of a round

async function finish(round) {
  const { ui } = round;
  const h = ui.h;
  ui.keys(null);
  await Promise.allSettled(round.pending);
  if (current !== round.token) return;
  const stars = round.right === round.asked ? 3 : round.right * 5 >= round.asked * 3 ? 2 : 1;
  const cheer = ["game.goodTry", "game.greatWork", "game.wellDone"][stars - 1];
  const sent = round.asked - round.queued - round.refused;
  const queued = round.queued ? await pendingCount().catch(() => round.queued) : 0;
  const heading = h("h2", { id: "cheer", tabindex: "-1" }, t(cheer));
  round.area.replaceChildren(h("div", { class: "result", id: "result", "data-score": round.right, "data-total": round.asked },
    heading,
    h("p", { class: "stars", id: "stars", role: "img", "aria-label": t("game.stars", { stars }) },
      h("span", { class: "won" }, "★".repeat(stars)), h("span", { class: "unwon" }, "☆".repeat(3 - stars))),
    h("p", { id: "score", class: "score" }, t(round.said ? "say.score" : "game.score", { right: round.right, total: round.asked })),
    round.missed.length ? h("section", { class: "practise" },
      h("h3", {}, t("game.practise")),
      h("ul", { class: "practise-list" }, round.missed.map((w) => h("li", {},
        h("span", { class: "picture", "aria-hidden": "true" }, ui.drawing(w)), h("span", { class: "word", lang: "en" }, w.word),
        h("span", { class: "vi", lang: "vi" }, w.vi ?? ""),
        h("button", { type: "button", class: "play", "aria-label": t("play.british", { word: w.word }), onclick: (e) => ui.play(w.word, "british", e.currentTarget) }, "▶"))))) : null,
    h("p", { id: "rated", class: "rated" }, round.said ? t("say.reviewed", { count: round.right })
      : !round.rated ? ratedNote(ui, round.source)
      : [queued ? t("review.queued", { count: queued }) : t("game.sent", { count: sent }),
         round.refused ? ` ${t("game.notAdded", { count: round.refused })}` : ""].join("")),
    h("p", { class: "actions" },
      h("button", { type: "button", class: "primary", id: "again",
        onclick: () => (round.said ? gamePage(ui, "say", round.source, new URLSearchParams(round.level ? `level=${round.level}` : "")) : start({ ...round, usable: reshuffle(round) })) }, t("game.again")),
      h("a", { class: "button", href: `#/play/${enc(round.source)}${levelSuffix(round.level)}`, id: "other-games" }, t("game.others")),
      h("a", { class: "button", href: round.words.back }, round.words.mine ? t("nav.library") : t("game.backToCategory")))));
  heading.focus();
}

// Another round of the same words: the words of this one last, so new ones come first.
function reshuffle(round) {
  const asked = new Set(round.usable.slice(0, round.game === "match" ? PAIRS : ROUND));
  return [...shuffle(round.usable.filter((w) => !asked.has(w))), ...shuffle([...asked])];
}
