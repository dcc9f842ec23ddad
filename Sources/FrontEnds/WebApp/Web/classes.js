// Classes in the web app: an adult signs up, makes classes, adds children (by name or a roster),
// sets words and sees who needs help; a child signs in on a shared device with the class code,
// their first name and 3 pictures, and finds "this week's words". Loaded when first needed.
//
// A child's picture password is shown by the server once, when the child is added or given new
// pictures. This page keeps those it was given in memory only (never on the device), so the
// sign-in cards print the children whose pictures this page just got.
import { catalog, classes, enc } from "./api.js";
import { t, failureText, language } from "./i18n.js";
import { GAMES } from "./games.js";
import { KINDS } from "./pictures.js";

// The pictures this page was given: class code → Map(child id → {id, firstName, pictures}).
const known = new Map();
let pictureList = null;

async function pictures() {
  pictureList ??= (await classes.pictures()).pictures;
  return pictureList;
}

function remember(code, added) {
  if (!known.has(code)) known.set(code, new Map());
  for (const c of added) known.get(code).set(c.id, c);
}

const pictureName = (p) => t(`picture.${p.name}`);

// A child's 3 pictures in order, big, with their names (what a child remembers and taps).
function pictureRow(ui, list, indexes, big = true) {
  const { h } = ui;
  return h("ol", { class: big ? "pic-row big" : "pic-row", "aria-label": t("class.picturesOf") },
    indexes.map((i) => {
      const p = list[i];
      return h("li", {}, h("span", { class: "pic", "aria-hidden": "true" }, p.picture), h("span", { class: "pic-name" }, pictureName(p)));
    }));
}

function day(seconds) {
  return new Intl.DateTimeFormat(language() === "vi" ? "vi-VN" : "en-GB", { day: "numeric", month: "short", timeZone: "UTC" })
    .format(new Date(seconds * 1000));
}

// "today", "yesterday", "3 days ago": when a child last answered.
function ago(seconds) {
  if (!seconds) return t("class.never");
  const start = new Date();
  start.setHours(0, 0, 0, 0);
  const days = Math.max(0, Math.ceil((start.getTime() / 1000 - seconds) / 86_400));
  if (days === 0) return t("class.today");
  if (days === 1) return t("class.yesterday");
  return t("class.daysAgo", { n: days });
}

// What the server refused, worded for the class pages where they say more than the words every
// page has for that code (failureText).
function explain(e) {
  const keys = { name_taken: "signup.taken", bad_name: "class.badName", too_many: "class.tooMany",
    bad_invitation: "class.badInvitation", child_name_taken: "class.nameTaken" };
  return keys[e.code] ? t(keys[e.code]) : failureText(e);
}

// A button that asks first: the question and a Yes and a Cancel button take its place.
function confirming(ui, label, question, yes, action, attrs = {}) {
  const { h } = ui;
  const button = h("button", { type: "button", ...attrs, onclick: () => {
    const cancel = h("button", { type: "button", class: "cancel", onclick: () => { panel.replaceWith(button); button.focus(); } }, t("class.cancel"));
    const panel = h("div", { class: "confirm", role: "group", "aria-label": question },
      h("p", {}, question),
      h("div", { class: "actions" },
        h("button", { type: "button", class: "danger", "data-confirm": attrs["data-action"] ?? "", onclick: async (e) => {
          e.currentTarget.disabled = true;
          await action();
        } }, yes),
        cancel));
    button.replaceWith(panel);
    cancel.focus();
  } }, label);
  return button;
}

function adultsOnly(ui) {
  const { h } = ui;
  ui.show(t("classes.title"), h("p", { class: "kind" }, t("classes.forAdults")),
    h("p", { class: "actions" }, h("a", { class: "button primary big", href: "#/week" }, t("week.title"))));
}

// MARK: an adult's sign-up

async function signUpPage(ui) {
  const { h } = ui;
  const error = h("p", { class: "error", role: "alert", hidden: true });
  const name = h("input", { id: "signup-name", name: "username", autocomplete: "username", required: true, maxlength: 60 });
  const password = h("input", { id: "signup-password", name: "new-password", type: "password", autocomplete: "new-password",
                                required: true, minlength: 10, "aria-describedby": "signup-hint" });
  const form = h("form", { class: "signin", id: "signup", onsubmit: async (e) => {
    e.preventDefault();
    error.hidden = true;
    try {
      const who = await classes.signUp(name.value.trim(), password.value);
      ui.signedIn({ ...who, child: false });
      location.hash = "#/classes";
    } catch (err) {
      error.textContent = explain(err);
      error.hidden = false;
    }
  } },
  h("label", { for: "signup-name" }, t("signup.name"), name),
  h("label", { for: "signup-password" }, t("signup.password"), password),
  h("p", { id: "signup-hint", class: "hint" }, t("signup.hint")),
  error,
  h("button", { type: "submit", class: "primary" }, t("signup.button")));
  ui.show(t("signup.title"), h("p", {}, t("signup.help")), form,
    h("p", {}, t("signup.haveAccount"), h("a", { href: "#/signin" }, t("nav.signin"))));
  name.focus();
}

// MARK: an adult's classes

async function classesPage(ui) {
  const { h } = ui;
  if (!(await ui.requireUser())) return;
  if (ui.state.user.child) return adultsOnly(ui);
  const list = await classes.list();
  const name = h("input", { id: "class-name", required: true, maxlength: 60, autocomplete: "off" });
  const error = h("p", { class: "error", role: "alert", hidden: true });
  const form = h("form", { class: "signin", id: "new-class", onsubmit: async (e) => {
    e.preventDefault();
    error.hidden = true;
    try {
      const made = await classes.create(name.value.trim());
      ui.state.notice = t("classes.made", { name: made.name, code: made.code });
      location.hash = `#/class/${enc(made.code)}`;
    } catch (err) {
      error.textContent = explain(err);
      error.hidden = false;
    }
  } },
  h("label", { for: "class-name" }, t("classes.name"), name),
  error,
  h("button", { type: "submit", class: "primary" }, t("classes.make")));
  ui.show(t("classes.title"),
    h("p", {}, t("classes.help")),
    list.length === 0 ? h("p", { class: "kind", id: "no-classes" }, t("classes.none")) :
      h("ul", { class: "grid classes", id: "classes" }, list.map((c) =>
        h("li", {}, h("a", { class: "tile class-tile", href: `#/class/${enc(c.code)}`, "data-code": c.code },
          h("span", { class: "emoji", "aria-hidden": "true" }, "🏫"),
          h("span", { class: "en" }, c.name),
          h("span", { class: "code" }, t("class.codeShort", { code: c.code })),
          h("span", { class: "count" }, t("classes.counts", { children: c.children, assignments: c.assignments })))))),
    h("h2", {}, t("classes.new")), form);
}

// MARK: one class

async function classPage(ui, code) {
  const { h } = ui;
  if (!(await ui.requireUser())) return;
  if (ui.state.user.child) return adultsOnly(ui);
  const [details, report, list] = await Promise.all([classes.get(code), classes.progress(code), pictures()]);
  code = details.code;
  // Children no longer in the class are not kept.
  const here = new Set(details.children.map((c) => c.id));
  for (const id of known.get(code)?.keys() ?? []) if (!here.has(id)) known.get(code).delete(id);
  const shown = known.get(code) ?? new Map();
  const again = async (focus) => {
    await classPage(ui, code);
    const target = focus && document.getElementById(focus);
    if (target) { target.scrollIntoView({ block: "start" }); target.focus({ preventScroll: true }); }
  };

  // The children, each with their pictures when this page was just given them.
  const childCard = (c) => {
    const got = shown.get(c.id);
    const signIn = c.signIn ?? { failedToday: 0, failedThisWeek: 0 };
    const invitation = h("p", { class: "kind invitation", hidden: true, role: "status" });
    return h("li", { class: "card child", "data-child": c.id, "data-name": c.firstName, "data-pictures": got ? got.pictures.join(",") : undefined,
                     "data-locked": signIn.lockedUntil ? "true" : undefined },
      h("h3", {}, c.firstName),
      got ? pictureRow(ui, list, got.pictures) : null,
      // What the guard saw: a locked child cannot sign in until the adult lets them in again.
      signIn.lockedUntil ? h("p", { class: "locked", role: "status" }, t("class.locked", { name: c.firstName })) : null,
      signIn.failedThisWeek > 0 ? h("p", { class: "hint failed" },
        t("class.failedTries", { today: signIn.failedToday, week: signIn.failedThisWeek })) : null,
      invitation,
      h("div", { class: "actions" },
        signIn.lockedUntil ? h("button", { type: "button", class: "primary", "data-action": "unlock", "aria-label": t("class.unlockFor", { name: c.firstName }),
          onclick: async (e) => {
            e.currentTarget.disabled = true;
            await classes.unlock(code, c.id);
            await again("children-title");
            ui.say(t("class.unlocked", { name: c.firstName }));
          } }, t("class.unlock")) : null,
        c.addedByYou === false ? null : h("button", { type: "button", "data-action": "pictures", "aria-label": t("class.newPicturesFor", { name: c.firstName }), onclick: async (e) => {
          e.currentTarget.disabled = true;
          const fresh = await classes.newPictures(code, c.id);
          remember(code, [fresh]);
          await again("children-title");
          ui.say(t("class.newPicturesDone", { name: c.firstName }));
        } }, t("class.newPictures")),
        c.addedByYou === false ? null : h("button", { type: "button", "data-action": "invite", "aria-label": t("class.inviteFor", { name: c.firstName }),
          onclick: async (e) => {
            e.currentTarget.disabled = true;
            const made = await classes.invite(code, c.id);
            invitation.textContent = t("class.invitation", { name: c.firstName, code: made.invitation });
            invitation.hidden = false;
            e.currentTarget.disabled = false;
          } }, t("class.invite")),
        confirming(ui, t("class.takeOut"), t("class.takeOutAsk", { name: c.firstName }), t("class.takeOutYes"), async () => {
          await classes.removeChild(code, c.id, false);
          await again("children-title");
          ui.say(t("class.takenOut", { name: c.firstName }));
        }, { "data-action": "remove", "aria-label": t("class.takeOutName", { name: c.firstName }) }),
        confirming(ui, t("class.erase"), t("class.eraseAsk", { name: c.firstName }), t("class.eraseYes"), async () => {
          await classes.removeChild(code, c.id, true);
          await again("children-title");
          ui.say(t("class.erased", { name: c.firstName }));
        }, { "data-action": "erase", "aria-label": t("class.eraseName", { name: c.firstName }) })));
  };
  const anyShown = details.children.some((c) => shown.has(c.id));

  // Adding children: one by name, or a roster pasted or read from a file.
  const addError = h("p", { class: "error", role: "alert", hidden: true });
  const added = async (body, field) => {
    addError.hidden = true;
    try {
      const result = await classes.addChildren(code, body);
      remember(code, result.added);
      await again("children-title");
      ui.say(result.joined.length ? t("class.joined", { name: result.joined.map((c) => c.firstName).join(", ") })
                                  : t("class.added", { count: result.added.length }));
    } catch (err) {
      addError.textContent = explain(err);
      addError.hidden = false;
      field.focus();
    }
  };
  const childName = h("input", { id: "child-name", required: true, maxlength: 30, autocomplete: "off" });
  const joinCode = h("input", { id: "join-code", maxlength: 14, autocomplete: "off", autocapitalize: "characters", spellcheck: "false",
                                "aria-describedby": "join-help" });
  const roster = h("textarea", { id: "roster", rows: 5, spellcheck: "false", "aria-describedby": "roster-help" });
  const file = h("input", { id: "roster-file", type: "file", accept: ".csv,.txt,text/csv,text/plain", onchange: async () => {
    const f = file.files?.[0];
    if (f) roster.value = await f.text();
  } });

  // Setting words: a topic at a level, with an optional due date.
  const level = ui.LEVELS[ui.state.level] ? ui.state.level : "starters";
  const topic = h("select", { id: "assign-category", required: true });
  const fillTopics = async (l) => {
    const cats = await catalog.categories(l);
    topic.replaceChildren(...cats.categories.map((c) =>
      h("option", { value: c.id, disabled: c.wordCount === 0 }, `${c.icon} ${ui.categoryName(c)} (${t("words.count", { count: c.wordCount })})`)));
    topic.value = cats.categories.find((c) => c.wordCount > 0)?.id ?? "";
  };
  await fillTopics(level);
  const levels = h("fieldset", { class: "level-choice" }, h("legend", {}, t("level.legend")),
    Object.entries(ui.LEVELS).map(([id, label]) => h("label", {},
      h("input", { type: "radio", name: "assign-level", value: id, checked: id === level, onchange: () => fillTopics(id) }), ` ${label}`)));
  const due = h("input", { id: "assign-due", type: "date" });
  const assignError = h("p", { class: "error", role: "alert", hidden: true });
  const assignForm = h("form", { class: "signin", id: "assign", onsubmit: async (e) => {
    e.preventDefault();
    assignError.hidden = true;
    const chosen = assignForm.querySelector('input[name="assign-level"]:checked').value;
    try {
      const made = await classes.assign(code, { category: topic.value, level: chosen, ...(due.value ? { due: due.value } : {}) });
      await again("assignments-title");
      ui.say(t("class.assigned", { title: made.title, count: made.entries.length }));
    } catch (err) {
      assignError.textContent = explain(err);
      assignError.hidden = false;
    }
  } }, levels,
  h("label", { for: "assign-category" }, t("class.topic"), topic),
  h("label", { for: "assign-due" }, t("class.due"), due),
  assignError,
  h("button", { type: "submit", class: "primary" }, t("class.assign")));

  // Progress: who finished what, the table, the words the class gets wrong.
  const names = Object.fromEntries(details.children.map((c) => [c.id, c.firstName]));
  const finished = Object.fromEntries(report.assignments.map((a) => [a.id, a]));
  const assignmentCard = (a) => {
    const done = finished[a.id]?.finished ?? [];
    return h("li", { class: "card assignment", "data-assignment": a.id, "data-finished": String(done.length) },
      h("h3", {}, a.title),
      h("p", {}, t("words.count", { count: a.entries.length }), a.dueAt ? ` · ${t("class.dueOn", { date: day(a.dueAt) })}` : ""),
      h("p", { class: "finished" }, t("class.finished", { done: done.length, count: details.children.length }),
        done.length ? `: ${done.map((id) => names[id] ?? "?").join(", ")}` : ""),
      h("div", { class: "actions" }, h("button", { type: "button", "data-action": "unassign", "aria-label": t("class.unassignTitle", { title: a.title }),
        onclick: async (e) => {
          e.currentTarget.disabled = true;
          await classes.unassign(code, a.id);
          await again("assignments-title");
          ui.say(t("class.unassigned", { title: a.title }));
        } }, t("class.unassign"))));
  };
  const hard = await Promise.all(report.hardWords.map(async (w) => {
    const found = await catalog.word(w.word).catch(() => null);
    const entry = found?.entries.find((x) => x.image || x.picture) ?? null;
    return { ...w, picture: entry?.picture, image: entry?.image };
  }));
  const percent = (a) => (a === undefined || a === null ? "–" : `${Math.round(a * 100)}%`);
  const table = h("div", { class: "table-wrap" }, h("table", { class: "class-table", id: "progress-table" },
    h("caption", {}, t("class.tableCaption")),
    // Said well is a 🎤 on a phone's narrow table, named in full for a screen reader and on hover.
    h("thead", {}, h("tr", {}, ["name", "days", "learned", "said", "answers", "right", "last"].map((k) =>
      h("th", { scope: "col", ...(k === "said" ? { title: t("class.col.saidFull"), "aria-label": t("class.col.saidFull") } : {}) }, t(`class.col.${k}`))))),
    h("tbody", {}, report.children.map((c) => h("tr", { "data-child": c.id, "data-answers": c.answers },
      h("th", { scope: "row" }, c.firstName), h("td", {}, String(c.daysPractised)), h("td", {}, String(c.wordsLearned)),
      h("td", { "data-said": c.wordsSaidWell }, String(c.wordsSaidWell ?? 0)), h("td", {}, String(c.answers)), h("td", {}, percent(c.accuracy)), h("td", {}, ago(c.lastActive)))))));

  ui.show(details.name,
    h("p", { class: "class-code" }, h("span", {}, t("class.code")), h("strong", { id: "class-code", lang: "en" }, details.code)),
    h("p", { class: "hint" }, t("class.codeHelp"), " ", h("a", { href: "#/kids" }, t("kids.link"))),
    details.failedSignInsToday > 0 ? h("p", { class: "kind", id: "failed-sign-ins" }, t("class.failedToday", { count: details.failedSignInsToday })) : null,
    h("section", { "aria-labelledby": "children-title" },
      h("h2", { id: "children-title", tabindex: "-1" }, t("class.children", { count: details.children.length })),
      anyShown ? h("div", { class: "kind", id: "pictures-note" }, h("p", {}, t("class.picturesOnce")),
        h("p", { class: "actions" }, h("a", { class: "button primary", id: "print-cards", href: `#/class/${enc(code)}/cards` }, t("class.printCards")))) : null,
      details.children.length === 0 ? h("p", {}, t("class.noChildren")) :
        h("ul", { class: "cards children", id: "children" }, details.children.map(childCard)),
      h("h3", {}, t("class.addTitle")),
      h("form", { class: "signin", id: "add-child", onsubmit: (e) => { e.preventDefault(); added({ name: childName.value.trim() }, childName); } },
        h("label", { for: "child-name" }, t("class.childName"), childName),
        h("button", { type: "submit", class: "primary" }, t("class.add"))),
      h("form", { class: "signin", id: "add-roster", onsubmit: (e) => {
        e.preventDefault();
        if (roster.value.trim()) added({ csv: roster.value }, roster); else roster.focus();
      } },
        h("label", { for: "roster" }, t("class.roster"), roster),
        h("p", { id: "roster-help", class: "hint" }, t("class.rosterHelp")),
        h("label", { for: "roster-file" }, t("class.rosterFile"), file),
        h("button", { type: "submit", class: "primary" }, t("class.addAll"))),
      // A child of another adult's class joins with the invitation that adult made.
      h("form", { class: "signin", id: "join-child", onsubmit: (e) => {
        e.preventDefault();
        if (joinCode.value.trim()) added({ join: { invitation: joinCode.value.trim() } }, joinCode); else joinCode.focus();
      } },
        h("label", { for: "join-code" }, t("class.joinCode"), joinCode),
        h("p", { id: "join-help", class: "hint" }, t("class.joinHelp")),
        h("button", { type: "submit", class: "primary" }, t("class.join"))),
      addError),
    h("section", { "aria-labelledby": "assignments-title" },
      h("h2", { id: "assignments-title", tabindex: "-1" }, t("class.assignments")),
      details.assignments.length === 0 ? h("p", {}, t("class.noAssignments")) :
        h("ul", { class: "cards", id: "assignments" }, details.assignments.map(assignmentCard)),
      h("h3", {}, t("class.assignTitle")), assignForm),
    h("section", { "aria-labelledby": "progress-title" },
      h("h2", { id: "progress-title" }, t("class.progress")),
      details.children.length ? table : h("p", {}, t("class.noChildren")),
      h("h3", {}, t("class.hardWords")),
      hard.length === 0 ? h("p", { id: "no-hard-words" }, t("class.noHardWords")) :
        h("ul", { class: "practise-list hard-words", id: "hard-words" }, hard.map((w) => h("li", { "data-word": w.word, "data-again": w.again },
          w.picture || w.image ? h("span", { class: "picture", role: "img", "aria-label": w.word }, ui.drawing(w)) : h("span", { class: "picture", "aria-hidden": "true" }, "•"),
          h("span", { class: "word", lang: "en" }, w.word),
          h("span", { class: "vi" }, t(w.children === 1 ? "class.hardCountsOne" : "class.hardCounts", { again: w.again, children: w.children }))))),
      h("p", { class: "actions" }, h("a", { class: "button", id: "csv", href: classes.csvURL(code), download: `class-${code}.csv` }, t("class.csv")))),
    h("section", { "aria-labelledby": "delete-title", class: "danger-zone" },
      h("h2", { id: "delete-title" }, t("class.deleteTitle")),
      h("p", {}, t("class.deleteHelp")),
      confirming(ui, t("class.delete"), t("class.deleteAsk", { name: details.name }), t("class.deleteYes"), async () => {
        await classes.remove(code);
        known.delete(code);
        ui.state.notice = t("class.deleted", { name: details.name });
        location.hash = "#/classes";
      }, { "data-action": "delete-class" })));
}

// MARK: sign-in cards

async function cardsPage(ui, code) {
  const { h } = ui;
  if (!(await ui.requireUser())) return;
  if (ui.state.user.child) return adultsOnly(ui);
  const [details, list] = await Promise.all([classes.get(code), pictures()]);
  code = details.code;
  const shown = known.get(code) ?? new Map();
  const children = details.children.filter((c) => shown.has(c.id)).map((c) => shown.get(c.id));
  // The address the page was opened with, which a pupil's device can reach too, unless it is this
  // computer's own (127.0.0.1, localhost): then the adult is told before printing.
  const where = `${location.origin}/#/kids`;
  const loopback = /^(127\.|localhost$|\[?::1\]?$)/.test(location.hostname);
  ui.show(t("cards.title", { name: details.name }),
    h("p", { class: "no-print kind", id: "cards-note" }, children.length ? t("cards.note", { count: children.length }) : t("cards.none")),
    loopback && children.length ? h("p", { class: "no-print error", id: "cards-loopback", role: "alert" }, t("cards.loopback", { origin: location.host })) : null,
    h("p", { class: "no-print actions" },
      children.length ? h("button", { type: "button", class: "primary", onclick: () => window.print() }, t("print.button")) : null,
      h("a", { class: "button", href: `#/class/${enc(code)}` }, t("cards.back"))),
    children.length === 0 ? null : h("ul", { class: "signin-cards", id: "signin-cards" }, children.map((c) =>
      h("li", { class: "signin-card", "data-child": c.id },
        h("p", { class: "card-name" }, c.firstName),
        h("p", { class: "card-code" }, t("class.code"), " ", h("strong", { lang: "en" }, details.code)),
        // The sentence that ends "in this order:" comes right before the pictures it means.
        h("p", { class: "card-help" }, t("cards.how")),
        pictureRow(ui, list, c.pictures),
        h("p", { class: "card-help card-where" }, t("cards.where"), " ", h("span", { class: "card-url" }, where))))));
}

// MARK: a child's sign-in

async function kidsPage(ui) {
  const { h } = ui;
  if (ui.state.user?.child) { location.hash = "#/"; return; }
  const list = await pictures();
  const chosen = [];
  const code = h("input", { id: "kids-code", class: "big-input", required: true, maxlength: 10, autocomplete: "off", autocapitalize: "characters",
                            spellcheck: "false", value: localStorage.getItem("vocab.kids.code") ?? "" });
  const name = h("input", { id: "kids-name", class: "big-input", required: true, maxlength: 30, autocomplete: "off" });
  const message = h("p", { class: "kind", id: "kids-message", role: "status", hidden: true });
  const slots = h("ol", { class: "pic-row big chosen", id: "chosen", "aria-label": t("kids.chosen") });
  const undo = h("button", { type: "button", id: "undo", onclick: () => { chosen.pop(); draw(); } }, t("kids.undo"));
  const buttons = list.map((p) => h("button", { type: "button", class: "pic-button", "data-index": p.index, "aria-label": pictureName(p),
    onclick: () => { if (chosen.length < 3 && !chosen.includes(p.index)) { chosen.push(p.index); draw(); } } },
    h("span", { class: "pic", "aria-hidden": "true" }, p.picture), h("span", { class: "pic-name", "aria-hidden": "true" }, pictureName(p))));
  const go = h("button", { type: "submit", class: "primary big", id: "kids-go" }, t("kids.go"));
  const draw = () => {
    slots.replaceChildren(...[0, 1, 2].map((n) => {
      const p = list[chosen[n]];
      return h("li", { class: p ? "slot-pic filled" : "slot-pic" },
        p ? [h("span", { class: "pic", "aria-hidden": "true" }, p.picture), h("span", { class: "pic-name" }, pictureName(p))]
          : [h("span", { class: "empty", "aria-hidden": "true" }, "?"), h("span", { class: "hidden-label" }, t("kids.slot", { n: n + 1 }))]);
    }));
    undo.disabled = chosen.length === 0;
    // A picture password is three different pictures: one already chosen cannot be chosen again.
    for (const b of buttons) b.disabled = chosen.length >= 3 || chosen.includes(Number(b.dataset.index));
    // With three pictures the next step is signing in.
    if (chosen.length === 3) go.focus();
  };
  const tell = (text) => { message.textContent = text; message.hidden = false; };
  const form = h("form", { class: "kids", id: "kids-form", onsubmit: async (e) => {
    e.preventDefault();
    message.hidden = true;
    if (!code.value.trim()) { tell(t("kids.needCode")); code.focus(); return; }
    if (!name.value.trim()) { tell(t("kids.needName")); name.focus(); return; }
    if (chosen.length < 3) { tell(t("kids.needPictures")); (buttons.find((b) => !b.disabled) ?? buttons[0]).focus(); return; }
    go.disabled = true;
    try {
      const who = await classes.childSignIn(code.value.trim(), name.value.trim(), chosen);
      localStorage.setItem("vocab.kids.code", code.value.trim().toUpperCase());
      ui.signedIn({ ...who, child: true });
      await ui.learnerLanguage();
      location.hash = "#/";
    } catch (err) {
      go.disabled = false;
      chosen.length = 0;
      draw();
      tell(err.status === 401 ? t("kids.notMatched") : err.code === "sign_in_locked" ? failureText(err) : err.status === 429 ? t("kids.rest") : explain(err));
      message.focus();
    }
  } },
  h("label", { for: "kids-code" }, t("kids.code"), code),
  h("label", { for: "kids-name" }, t("kids.name"), name),
  h("fieldset", { class: "pictures" }, h("legend", {}, t("kids.pictures")),
    slots,
    h("ul", { class: "pic-grid", id: "pic-grid" }, buttons.map((b) => h("li", {}, b))),
    h("p", { class: "actions" }, undo)),
  message,
  h("p", { class: "actions" }, go));
  message.tabIndex = -1;
  draw();
  ui.show(t("kids.title"),
    ui.state.user ? h("p", { class: "kind" }, t("kids.adultSignedIn", { name: ui.state.user.name })) : null,
    form,
    h("p", {}, h("a", { href: "#/signin" }, t("kids.adult"))));
  (code.value ? name : code).focus();
}

// MARK: this week's words

async function weekPage(ui) {
  const { h } = ui;
  if (!(await ui.requireUser())) return;
  // Kept on the device for the next time it is offline (a school's tablet on a weak network);
  // signing out forgets it.
  const kept = `vocab.week.${ui.state.user.id}`;
  let mine;
  let offline = false;
  try {
    mine = await classes.mine();
    localStorage.setItem(kept, JSON.stringify(mine));
  } catch (e) {
    mine = e.status === undefined ? JSON.parse(localStorage.getItem(kept) ?? "null") : null;
    if (!mine) throw e;
    offline = true;
  }
  const cats = await catalog.categories().catch(() => ({ categories: [] }));
  const byId = Object.fromEntries(cats.categories.map((c) => [c.id, c]));
  const title = (a) => {
    const c = a.category && byId[a.category];
    return c ? `${c.icon} ${ui.categoryName(c)}${a.level ? ` · ${ui.LEVELS[a.level] ?? a.level}` : ""}` : a.title;
  };
  // Each set of words leads straight into each game (one tap from here to the first question)
  // and to its cards: the level is the assignment's, never a choice a child has to make.
  const source = (a) => (a.category ? enc(a.category) : "mine");
  const levelPart = (a) => (a.category && a.level ? `?level=${a.level}` : "");
  const tile = (href, icon, label, color, attrs = {}) => h("li", {},
    h("a", { class: "tile game-tile child-tile", href, style: `--tile:${color}`, ...attrs },
      h("span", { class: "emoji", "aria-hidden": "true" }, icon), h("span", { class: "en" }, label)));
  const activities = (a) => h("ul", { class: "grid child-tiles" },
    Object.entries(GAMES).map(([id, g]) => tile(`#/play/${id}/${source(a)}${levelPart(a)}`, g.icon, t(g.name), g.color, { "data-play": a.id, "data-game": id })),
    tile("#/review", "🃏", t("home.cards"), "#6D597A", { "data-review": a.id }));
  const name = ui.state.user.name;
  // Without a set from a class: a few topics a young child knows, at the child's level.
  const level = ui.state.level || "starters";
  const topics = mine.length ? [] : cats.categories.filter((c) => ui.STARTER_SETS.includes(c.id));
  ui.show(t("week.title"),
    h("p", { class: "hello" }, t("week.hello", { name })),
    offline ? h("p", { class: "kind", id: "week-offline" }, t("week.offline")) : null,
    mine.length === 0 ? [h("p", { class: "kind", id: "week-none" }, t("week.none")),
      h("ul", { class: "grid child-tiles", id: "week-topics" }, topics.map((c) =>
        tile(`#/play/${enc(c.id)}?level=${level}`, c.icon, ui.categoryName(c), c.color, { "data-topic": c.id })))] :
      h("ul", { class: "cards week", id: "week" }, mine.map((a) => {
        const done = a.answered >= a.words;
        // The games first, on a small phone's first screen; how far the child has come after.
        return h("li", { class: "card assignment", "data-assignment": a.id, "data-answered": a.answered, "data-words": a.words },
          h("h2", {}, title(a)),
          activities(a),
          h("p", { class: "week-count" }, h("progress", { max: a.words, value: a.answered, "aria-label": t("week.progressLabel", { title: title(a) }) }),
            " ", h("strong", { class: "of" }, t("week.of", { answered: a.answered, words: a.words }))),
          done ? h("p", { class: "kind" }, t("week.allDone")) : null,
          a.dueAt ? h("p", { class: "pos" }, t("class.dueOn", { date: day(a.dueAt) })) : null);
      })),
    h("h2", {}, t("home.myWords")),
    h("ul", { class: "grid child-tiles", id: "week-mine" },
      tile("#/play/mine", "🎮", t("home.playMine"), "#2A9D8F", { id: "week-play-mine" }),
      tile("#/review", "🃏", t("week.reviewAll"), "#6D597A", { id: "week-review" })),
    // Doing words and where words from every topic, at the child's level.
    h("h2", {}, t("kind.title")),
    h("ul", { class: "grid child-tiles", id: "week-kinds" }, Object.entries(KINDS).map(([id, k]) =>
      tile(`#/play/${enc(id)}?level=${level}`, k.icon, t(k.name), k.color, { "data-kind": id }))));
}

// The pages of this module, by the first part of the address.
export async function page(ui, name, a, b) {
  switch (name) {
    case "signup": return signUpPage(ui);
    case "classes": return classesPage(ui);
    case "class": return b === "cards" ? cardsPage(ui, a) : classPage(ui, a);
    case "kids": return kidsPage(ui);
    case "week": return weekPage(ui);
  }
}
