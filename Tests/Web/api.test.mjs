// The web app's API client against a real HTTP server on loopback (Node's): an answer cut short is
// never taken for a success. In CI a save's 201 arrived without its body (a framing bug since
// fixed in the server); the page read `null`, threw a TypeError and said nothing.
import { test } from "node:test";
import assert from "node:assert/strict";
import http from "node:http";

globalThis.sessionStorage = { getItem: () => null, setItem() {}, removeItem() {} };
const { api } = await import("../../Sources/FrontEnds/WebApp/Web/api.js");
const { failureText, setLanguage } = await import("../../Sources/FrontEnds/WebApp/Web/i18n.js");

async function withServer(handler, body) {
  const server = http.createServer(handler);
  await new Promise((resolve) => server.listen(0, "127.0.0.1", resolve));
  const base = `http://127.0.0.1:${server.address().port}`;
  const fetchBefore = globalThis.fetch;
  globalThis.fetch = (path, options) => fetchBefore(base + path, options);
  try {
    return await body();
  } finally {
    globalThis.fetch = fetchBefore;
    server.closeAllConnections?.();
    await new Promise((resolve) => server.close(resolve));
  }
}

test("a 201 whose body is cut short is not reached: no result, and the page says the server could not be reached", async () => {
  await withServer((request, response) => {
    response.writeHead(201, { "Content-Type": "application/json", "Content-Length": "527" });
    // The head and a part of the body reach the client (fetch resolves), then the connection ends.
    response.write('{"added":1,"items":[', () => setTimeout(() => response.socket.destroy(), 100));
  }, async () => {
    const error = await api("/v1/me/library", { method: "POST", body: { entries: ["animals/dog"] } }).then(() => null, (e) => e);
    assert.ok(error, "the cut answer was taken for a success");
    assert.equal(error.status, undefined, "an unreadable answer has no status: the offline queue keeps a rating for later");
    setLanguage("en");
    assert.match(failureText(error), /cannot be reached/);
  });
});

test("a 201 with a JSON body is its result; a 4xx is an APIError with its code", async () => {
  await withServer((request, response) => {
    const refused = request.url.includes("zebra");
    const body = refused ? '{"error":{"code":"unknown_entry","message":"no"}}' : '{"added":1}';
    response.writeHead(refused ? 404 : 201, { "Content-Type": "application/json", "Content-Length": String(Buffer.byteLength(body)) });
    response.end(body);
  }, async () => {
    assert.deepEqual(await api("/v1/me/library", { method: "POST", body: { entries: ["animals/dog"] } }), { added: 1 });
    const error = await api("/v1/words/zebra").then(() => null, (e) => e);
    assert.equal(error.status, 404);
    assert.equal(error.code, "unknown_entry");
  });
});
