// The JSON API as the pages use it. The server decides everything; this only adds the
// session's CSRF token to state-changing requests and turns error bodies into exceptions.

export class APIError extends Error {
  constructor(status, body) {
    super(body?.error?.message ?? `HTTP ${status}`);
    this.status = status;
    this.code = body?.error?.code ?? "http";
    this.body = body;
  }
}

let csrf = sessionStorage.getItem("vocab.csrf");

export function setCSRF(token) {
  csrf = token;
  if (token) sessionStorage.setItem("vocab.csrf", token); else sessionStorage.removeItem("vocab.csrf");
}

// `audio`: a recording (a Blob with its type) sent as the body itself, not as JSON.
export async function api(path, { method = "GET", body, audio } = {}) {
  const headers = { Accept: "application/json" };
  if (body !== undefined) headers["Content-Type"] = "application/json";
  if (audio !== undefined) headers["Content-Type"] = audio.type;
  if (method !== "GET" && method !== "HEAD" && csrf) headers["X-CSRF-Token"] = csrf;
  const response = await fetch(path, {
    method, headers, credentials: "same-origin",
    body: audio ?? (body === undefined ? undefined : JSON.stringify(body)),
  });
  if (response.status === 204) return null;
  const data = await response.json().catch(() => undefined);
  // An answer cut short or unreadable: whether the server acted is unknown, so it counts as not
  // reached (a rating waits and is sent again with its clientId; the page says the server could
  // not be reached), never as done.
  if (data === undefined && response.ok) throw new Error(`unreadable answer to ${method} ${path}`);
  if (!response.ok && response.status !== 409) throw new APIError(response.status, data);
  if (response.status === 409) throw new APIError(409, data);
  return data;
}

export const enc = encodeURIComponent;

export const catalog = {
  categories: (level) => api(`/v1/categories${level ? `?level=${level}` : ""}`),
  words: (id, level, limit, offset) =>
    api(`/v1/categories/${enc(id)}/words?limit=${limit}&offset=${offset}${level ? `&level=${level}` : ""}`),
  // The words of one part of speech across the topics: the doing words, the where words.
  partOfSpeech: (pos, level, limit, offset) =>
    api(`/v1/words?pos=${enc(pos)}&limit=${limit}&offset=${offset}${level ? `&level=${level}` : ""}`),
  word: (word) => api(`/v1/words/${enc(word)}`),
  search: (q, limit, offset) => api(`/v1/search?q=${enc(q)}&limit=${limit}&offset=${offset}`),
  moe: (title) => api(`/v1/moe/${enc(title)}`),
  // speed 0.75: slower speech for a child (a clip of its own on the server).
  audioURL: (word, accent, speed) => `/v1/audio/${enc(word)}?accent=${accent}&format=ogg${speed ? `&speed=${speed}` : ""}`,
  // A Mandarin title in one of its readings (pinyin); speed 0.75 is synthesised more slowly.
  moeAudioURL: (title, reading, speed) =>
    `/v1/moe/${enc(title)}/audio?format=ogg${reading ? `&reading=${enc(reading)}` : ""}${speed ? `&speed=${speed}` : ""}`,
};

export const session = {
  current: () => api("/v1/session"),
  signIn: (name, password) => api("/v1/session", { method: "POST", body: { name, password } }),
  signOut: () => api("/v1/session", { method: "DELETE" }),
};

export const me = {
  get: () => api("/v1/me"),
  // The learner's interface language (en, vi), kept on the server for every device.
  setLanguage: (language) => api("/v1/me/settings", { method: "PATCH", body: { language } }),
  // The learner's time zone (an IANA name): their review days start at 4 am in it.
  setTimeZone: (timeZone) => api("/v1/me/settings", { method: "PATCH", body: { timeZone } }),
  // Whether a review card says its word as it appears (it does unless turned off).
  setCardSound: (cardSound) => api("/v1/me/settings", { method: "PATCH", body: { cardSound } }),
  library: () => api("/v1/me/library"),
  save: (word) => api("/v1/me/library", { method: "POST", body: { word, source: "catalog" } }),
  // One entry of a catalog headword, the sense shown ("bat · animal"), and no other: by the id
  // the server gave it (a client never builds one).
  saveEntry: (w) => me.saveEntries([w.id]),
  // Exactly these entries (a starter set), in one request the server saves in one transaction.
  saveEntries: (ids) => api("/v1/me/library", { method: "POST", body: { entries: ids } }),
  // One reading of a Mandarin title, named by its pinyin (bopomofo where it has none).
  saveMandarin: (title, reading) => api("/v1/me/library", { method: "POST", body: { word: title, source: "moe", reading } }),
  saveAllReadings: (title) => api("/v1/me/library", { method: "POST", body: { word: title, source: "moe", allReadings: true } }),
  remove: (id) => api(`/v1/me/library/${id}`, { method: "DELETE" }),
  next: (limit = 10) => api(`/v1/me/review/next?limit=${limit}`),
  rate: (rating) => api("/v1/me/reviews", { method: "POST", body: rating }),
  // A rating as review and the games make it, queued or not: a saved item's is sent as it is; a
  // game's answer about a catalog word ({word, entry}, from a category's game) saves that entry
  // first (saving it again changes nothing), then rates it.
  answer: async ({ word, entry, ...rating }) => {
    if (rating.item !== undefined) return me.rate(rating);
    const saved = await me.saveEntries([entry]);
    const item = saved.items.find((i) => i.entry === entry) ?? saved.items[0];
    return me.rate({ ...rating, item: item.id });
  },
  progress: () => api("/v1/me/progress"),
  // A recording of the learner saying an entry: what was heard, the verdict, and whether it
  // counted as a review (only a clear success does, as Good).
  attempt: (entry, wav) => api(`/v1/me/attempts?entry=${enc(entry)}`, { method: "POST", audio: wav }),
};

// Classes: an adult's sign-up and classes, a child's picture sign-in and assignments.
export const classes = {
  signUp: (name, password) => api("/v1/signup", { method: "POST", body: { name, password } }),
  // A child on a shared device: the class code, their first name, 3 pictures (positions in pictures()).
  childSignIn: (code, name, pictures) => api("/v1/session/child", { method: "POST", body: { code, name, pictures } }),
  pictures: () => api("/v1/pictures"),
  list: () => api("/v1/classes"),
  create: (name) => api("/v1/classes", { method: "POST", body: { name } }),
  get: (code) => api(`/v1/classes/${enc(code)}`),
  remove: (code) => api(`/v1/classes/${enc(code)}`, { method: "DELETE" }),
  // {name} or {csv}: the answer's added children carry their pictures, shown only then.
  addChildren: (code, body) => api(`/v1/classes/${enc(code)}/children`, { method: "POST", body }),
  removeChild: (code, id, erase) => api(`/v1/classes/${enc(code)}/children/${id}${erase ? "?erase=true" : ""}`, { method: "DELETE" }),
  newPictures: (code, id) => api(`/v1/classes/${enc(code)}/children/${id}/pictures`, { method: "POST" }),
  unlock: (code, id) => api(`/v1/classes/${enc(code)}/children/${id}/unlock`, { method: "POST" }),
  invite: (code, id) => api(`/v1/classes/${enc(code)}/children/${id}/invitation`, { method: "POST" }),
  assign: (code, body) => api(`/v1/classes/${enc(code)}/assignments`, { method: "POST", body }),
  unassign: (code, id) => api(`/v1/classes/${enc(code)}/assignments/${enc(id)}`, { method: "DELETE" }),
  progress: (code) => api(`/v1/classes/${enc(code)}/progress`),
  csvURL: (code) => `/v1/classes/${enc(code)}/progress.csv`,
  // A child's assignments across their classes, with how many words they have answered.
  mine: () => api("/v1/me/assignments"),
};
