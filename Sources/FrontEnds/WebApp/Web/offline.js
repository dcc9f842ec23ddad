// Ratings made while the server cannot be reached wait in IndexedDB, each with the clientId
// it was made with, and are sent in order when the server answers again. The server applies
// a clientId once, so a rating sent twice (the answer was lost) still counts once.

const DB = "vocab", STORE = "ratings";

function open() {
  return new Promise((resolve, reject) => {
    const request = indexedDB.open(DB, 1);
    request.onupgradeneeded = () => request.result.createObjectStore(STORE, { keyPath: "clientId" });
    request.onsuccess = () => resolve(request.result);
    request.onerror = () => reject(request.error);
  });
}

function run(mode, work) {
  return open().then((db) => new Promise((resolve, reject) => {
    const tx = db.transaction(STORE, mode);
    const result = work(tx.objectStore(STORE));
    tx.oncomplete = () => { db.close(); resolve(result.result ?? result); };
    tx.onerror = () => { db.close(); reject(tx.error); };
  }));
}

export function queueRating(rating) {
  return run("readwrite", (store) => store.put({ ...rating, queuedAt: Date.now() }));
}

export function pendingCount() {
  return run("readonly", (store) => store.count());
}

function pending() {
  return run("readonly", (store) => store.getAll()).then((all) => all.sort((a, b) => a.queuedAt - b.queuedAt));
}

function forget(clientId) {
  return run("readwrite", (store) => store.delete(clientId));
}

let flushing = null;

// Sends every queued rating; a rating is forgotten once the server has answered it (applied,
// repeated, or refused as stale: none of these would change by sending it again).
export function flushQueue(send) {
  flushing ??= (async () => {
    let sent = 0;
    for (const rating of await pending()) {
      const { queuedAt, ...body } = rating;
      try {
        await send(body);
      } catch (e) {
        if (e.status === undefined) break;   // still offline: keep it
        if (e.status === 401) break;         // signed out: keep it for the next sign-in
      }
      await forget(rating.clientId);
      sent += 1;
    }
    return sent;
  })().finally(() => { flushing = null; });
  return flushing;
}
