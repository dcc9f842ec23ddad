// Say it: the child looks at a picture, hears the word, taps the big microphone and says it;
// the server listens (offline, on its own machine) and says kindly what it heard. A clear
// success counts as a review (Good); anything else is "nearly, listen and try again" and never
// rates a card Again. Nothing of the recording is kept.
//
// The recording is made here as 16-bit WAV rather than with MediaRecorder (whose WebM/Opus the
// server reads too, but Safari records MP4): the samples are needed anyway to hear when the
// child starts and stops, and are kept from a moment before the child starts to speak until they
// pause, or four seconds at most; the child can tap again to stop.
import { catalog, me, APIError } from "./api.js";
import { t } from "./i18n.js";

const LOUD = 0.02;         // RMS of 20 ms above which someone is speaking (−34 dBFS)
const PAUSE = 0.7;         // seconds of quiet after speech that end an attempt
const LONGEST = 4;         // seconds an attempt lasts at most
const BEFORE = 0.3;        // seconds kept before the first sound
const SETTLE = 0.25;       // quiet heard before a sound counts as the start of the word…
const ANYWAY = 1.0;        // …unless the child has been speaking since the microphone opened
const TRIES = 3;           // attempts at a word before "Next" is offered first
export const ROUND = 5;    // words in a round

export class MicrophoneError extends Error {
  constructor(kind) {
    super(kind);
    this.kind = kind; // "refused" or "none"
  }
}

// Opens the microphone and records one attempt. Returns { done, stop }: `done` resolves to a
// WAV Blob (or null when nothing was said before the time was up), `stop` ends it early.
export async function record({ onLevel } = {}) {
  if (!navigator.mediaDevices?.getUserMedia) throw new MicrophoneError("none");
  let stream;
  try {
    stream = await navigator.mediaDevices.getUserMedia({ audio: { echoCancellation: true, noiseSuppression: true, channelCount: 1 } });
  } catch (e) {
    throw new MicrophoneError(e.name === "NotAllowedError" || e.name === "SecurityError" ? "refused" : "none");
  }
  const context = new AudioContext();
  const rate = context.sampleRate;
  const source = context.createMediaStreamSource(stream);
  // A script processor, not a worklet: no module file to fetch, and every browser that has
  // getUserMedia has it. Its output is silence; it is connected only so that it runs.
  const processor = context.createScriptProcessor(2048, 1, 1);
  const chunks = [];
  let total = 0, quietRun = 0, onset = null, quietAfter = 0, settled = false, finished = false;
  let resolve;
  const done = new Promise((r) => { resolve = r; });
  const stop = () => {
    if (finished) return;
    finished = true;
    processor.disconnect();
    source.disconnect();
    stream.getTracks().forEach((track) => track.stop());
    context.close();
    if (onset === null) return resolve(null);
    const samples = concat(chunks, total);
    const from = Math.max(0, onset - Math.round(BEFORE * rate));
    resolve(wav(samples.subarray(from), rate));
  };
  processor.onaudioprocess = (e) => {
    if (finished) return;
    const x = new Float32Array(e.inputBuffer.getChannelData(0));
    chunks.push(x);
    const frame = Math.round(rate / 50);
    for (let i = 0; i + frame <= x.length; i += frame) {
      let sum = 0;
      for (let j = i; j < i + frame; j += 1) sum += x[j] * x[j];
      const rms = Math.sqrt(sum / frame);
      onLevel?.(rms);
      const at = total + i;
      if (rms >= LOUD) {
        quietAfter = 0;
        if (onset === null && (settled || at >= ANYWAY * rate)) onset = at;
        quietRun = 0;
      } else {
        quietRun += frame;
        if (quietRun >= SETTLE * rate) settled = true;
        if (onset !== null) quietAfter += frame;
      }
    }
    total += x.length;
    if ((onset !== null && quietAfter >= PAUSE * rate) || total >= LONGEST * rate) stop();
  };
  source.connect(processor);
  processor.connect(context.destination);
  return { done, stop };
}

function concat(chunks, total) {
  const all = new Float32Array(total);
  let at = 0;
  for (const c of chunks) { all.set(c, at); at += c.length; }
  return all;
}

// 16-bit mono WAV; at 48 kHz (or 32) the samples are first averaged down to 16 kHz, which is
// what the listener hears at, so a four-second attempt is 128 KB instead of 384.
export function wav(samples, rate) {
  let x = samples, r = rate;
  const factor = rate % 16000 === 0 ? rate / 16000 : 1;
  if (factor > 1) {
    x = new Float32Array(Math.floor(samples.length / factor));
    for (let i = 0; i < x.length; i += 1) {
      let sum = 0;
      for (let j = 0; j < factor; j += 1) sum += samples[i * factor + j];
      x[i] = sum / factor;
    }
    r = 16000;
  }
  const buffer = new ArrayBuffer(44 + x.length * 2);
  const v = new DataView(buffer);
  const text = (at, s) => { for (let i = 0; i < s.length; i += 1) v.setUint8(at + i, s.charCodeAt(i)); };
  text(0, "RIFF"); v.setUint32(4, 36 + x.length * 2, true); text(8, "WAVE");
  text(12, "fmt "); v.setUint32(16, 16, true); v.setUint16(20, 1, true); v.setUint16(22, 1, true);
  v.setUint32(24, r, true); v.setUint32(28, r * 2, true); v.setUint16(32, 2, true); v.setUint16(34, 16, true);
  text(36, "data"); v.setUint32(40, x.length * 2, true);
  for (let i = 0; i < x.length; i += 1) v.setInt16(44 + i * 2, Math.max(-1, Math.min(1, x[i])) * 32767, true);
  return new Blob([buffer], { type: "audio/wav" });
}

// What the verdict (or the failure) says to the child, in their language: never "wrong".
export function verdictText(body) {
  switch (body.verdict) {
    case "well_said": return t("say.wellSaid", { word: body.word });
    case "nearly": {
      let text = t("say.nearly");
      if (body.soundedLike) text += " " + t("say.soundedLike", { word: body.soundedLike.word });
      if (body.sound) text += " " + t("say.listenFor", { sound: body.sound });
      return text;
    }
    case "not_heard": return t("say.notHeard");
    default: return t("say.silence");
  }
}

export function failureKey(e) {
  if (e instanceof MicrophoneError) return e.kind === "refused" ? "say.micRefused" : "say.noMic";
  if (!(e instanceof APIError)) return "say.offline";
  return { audio_too_long: "say.tooLong", listener_unavailable: "say.unavailable", bad_audio: "say.badAudio", unsupported_audio: "say.badAudio" }[e.code] ?? "say.unavailable";
}

// One word on the screen: its picture, 🔊 and 🐢, the big 🎤, and what was heard.
// `onDone(saidWell)` is called when the child goes on.
function wordCard(ui, w, { onDone, counter } = {}) {
  const { h } = ui;
  const feedback = h("p", { class: "feedback say-feedback", id: "say-feedback", role: "status" });
  const level = h("span", { class: "mic-level", "aria-hidden": "true" });
  let tries = 0, recording = null, saidWell = false;
  const mic = h("button", { type: "button", class: "mic primary", id: "say-mic", "aria-label": t("say.tapToSay", { word: w.word }) },
    h("span", { class: "emoji", "aria-hidden": "true" }, "🎤"), h("span", { class: "mic-label" }, t("say.tapToSay", { word: w.word })), level);
  const next = h("button", { type: "button", class: "next", id: "say-next", hidden: true, onclick: () => onDone?.(saidWell) }, t("game.next"));
  const setLabel = (key) => { mic.querySelector(".mic-label").textContent = t(key, { word: w.word }); };
  mic.onclick = async () => {
    if (recording) { recording.stop(); return; }
    feedback.textContent = "";
    try {
      recording = await record({ onLevel: (rms) => level.style.setProperty("--level", String(Math.min(1, rms * 12))) });
    } catch (e) {
      feedback.textContent = t(failureKey(e));
      next.hidden = false;
      return;
    }
    mic.classList.add("listening");
    mic.setAttribute("aria-pressed", "true");
    setLabel("say.listening");
    const blob = await recording.done;
    recording = null;
    mic.classList.remove("listening");
    mic.setAttribute("aria-pressed", "false");
    level.style.setProperty("--level", "0");
    if (!blob) {
      setLabel("say.tapToSay");
      feedback.textContent = t("say.silence");
      return;
    }
    setLabel("say.thinking");
    mic.setAttribute("aria-busy", "true");
    try {
      const body = await me.attempt(w.entry, blob);
      tries += 1;
      feedback.textContent = verdictText(body);
      feedback.dataset.verdict = body.verdict;
      if (body.verdict === "well_said") {
        saidWell = true;
        mic.hidden = true;
        next.hidden = false;
        next.classList.add("primary");
        next.focus();
      } else {
        if (body.verdict === "nearly") ui.play(w.word, "british", null, 0.75, true);
        if (tries >= TRIES) { next.hidden = false; next.classList.add("primary"); }
      }
    } catch (e) {
      feedback.textContent = t(failureKey(e));
      next.hidden = false;
    } finally {
      mic.removeAttribute("aria-busy");
      setLabel(tries ? "say.tryAgain" : "say.tapToSay");
    }
  };
  return h("div", { class: "say-card", "data-word": w.word, "data-entry": w.entry },
    counter ?? null,
    h("p", { class: "picture say-picture" }, ui.drawing(w)),
    h("p", { class: "say-word", lang: "en" }, w.word),
    h("div", { class: "plays listen" },
      h("button", { type: "button", class: "play", id: "say-hear", onclick: (e) => ui.play(w.word, "british", e.currentTarget) }, t("game.hear")),
      h("button", { type: "button", class: "play slow", id: "say-slow", onclick: (e) => ui.play(w.word, "british", e.currentTarget, 0.75) }, t("play.slow"))),
    h("p", { class: "mic-row" }, mic),
    feedback,
    h("p", {}, next));
}

// #/say/<word>/<entry>: one word, from its word page.
export async function sayPage(ui, word, entry) {
  const { h } = ui;
  if (!(await ui.requireUser())) return;
  const body = await catalog.word(word);
  const found = body.entries.find((e) => e.id === entry) ?? body.entries[0];
  const w = { word: found.word, picture: found.picture, image: found.image, vi: found.vi, sense: found.sense, entry: found.id };
  ui.show(`🎤 ${t("game.say")}`,
    h("section", { class: "game say", id: "game", "data-game": "say" },
      wordCard(ui, w, { onDone: () => { location.hash = `#/word/${encodeURIComponent(found.word)}`; } })));
  ui.play(w.word, "british", null, undefined, true);
}

// A round of a category at a level, this week's words or my words (the games' words).
export function sayRound(ui, words, done) {
  const { h } = ui;
  const targets = words.usable.slice(0, ROUND);
  const area = h("section", { class: "game say", id: "game", "data-game": "say" });
  ui.show(`🎤 ${t("game.say")}`, h("p", { class: "game-sub" }, words.title), area);
  let n = 0, well = 0;
  const ask = () => {
    if (n >= targets.length) return done({ right: well, asked: targets.length, area });
    const w = targets[n];
    n += 1;
    area.replaceChildren(wordCard(ui, w, {
      counter: h("p", { class: "counter", id: "counter" }, t("game.counter", { n, total: targets.length })),
      onDone: (saidWell) => { if (saidWell) well += 1; ask(); },
    }));
    ui.play(w.word, "british", null, undefined, true);
  };
  ask();
}
