import AppCore
import CompressNIO
import Foundation
import HTTPAPI
import NIOCore
import TestSupport
import Testing
import WebApp

/// `vocab serve` serves the web app at `/` beside the JSON API: the files of Web/ with their
/// media types, ETags, gzip and cache headers, over real HTTP on loopback.
@Suite("the web app is served at /")
struct WebAppServingTests {
    static let shell = [
        "/", "/index.html", "/app.js", "/api.js", "/charts.js", "/offline.js", "/i18n.js", "/games.js", "/say.js", "/classes.js", "/pictures.js", "/style.css",
        "/sw.js",
        "/icon.svg",
        "/manifest.webmanifest",
    ]

    @Test("every file of the shell answers with its media type, an ETag, no-cache and nosniff; the page has a same-origin CSP")
    func filesAndHeaders() async throws {
        try await withServer { s in
            let types = [
                "html": "text/html; charset=utf-8", "js": "text/javascript; charset=utf-8", "css": "text/css; charset=utf-8",
                "svg": "image/svg+xml", "webmanifest": "application/manifest+json",
            ]
            for path in Self.shell {
                let r = try await s.get(path)
                #expect(r.status == 200, "\(path)")
                let ext = path == "/" ? "html" : String(path.split(separator: ".").last!)
                #expect(r.header("content-type") == types[ext], "\(path): \(r.header("content-type") ?? "none")")
                #expect(r.header("etag") != nil, "\(path)")
                #expect(r.header("cache-control") == "no-cache", "\(path)")
                #expect(r.header("x-content-type-options") == "nosniff", "\(path)")
            }
            let page = try await s.get("/")
            #expect(page.text.contains(#"<script type="module" src="/app.js"></script>"#))
            let csp = try #require(page.header("content-security-policy"))
            #expect(csp.contains("default-src 'self'") && csp.contains("frame-ancestors 'none'") && !csp.contains("unsafe-inline"))
            #expect(try await s.get("/index.html").body == page.body)
        }
    }

    @Test("gzip for clients that accept it, 304 for a known ETag, HEAD without a body; unknown files and other methods are refused")
    func conditionalAndCompressed() async throws {
        try await withServer { s in
            let plain = try await s.get("/app.js")
            let packed = try await s.get("/app.js", headers: ["Accept-Encoding": "gzip"])
            #expect(packed.header("content-encoding") == "gzip")
            #expect(packed.body.count < plain.body.count / 2)
            #expect(packed.header("vary") == "Accept-Encoding")
            var buffer = ByteBuffer(bytes: packed.body)
            #expect(Array(try buffer.decompress(with: .gzip()).readableBytesView) == plain.body)
            let again = try await s.get("/app.js", headers: ["If-None-Match": try #require(plain.header("etag"))])
            #expect(again.status == 304 && again.body.isEmpty)
            let head = try await s.request("HEAD", "/")
            #expect(head.status == 200 && head.body.isEmpty && head.header("content-type") == "text/html; charset=utf-8")
            #expect(try await s.get("/nothing.js").status == 404)
            #expect(try await s.get("/../Package.swift").status == 400)
            #expect(try await s.request("POST", "/").status == 405)
            // The JSON API is untouched beside it.
            #expect(try await s.get("/v1/categories").header("content-type") == "application/json; charset=utf-8")
        }
    }

    @Test("the first page (HTML, every module it imports, CSS, icon) is under 100 KB transferred with gzip")
    func pageWeight() async throws {
        try await withServer { s in
            var total = 0
            var rows: [String] = []
            for path in ["/", "/style.css", "/icon.svg", "/app.js", "/api.js", "/charts.js", "/offline.js", "/i18n.js", "/manifest.webmanifest", "/sw.js"] {
                let r = try await s.get(path, headers: ["Accept-Encoding": "gzip"])
                let head = r.headers.map { "\($0.key): \($0.value)\r\n" }.joined().utf8.count + 17
                total += r.body.count + head
                rows.append("\(path) \(r.body.count) B")
            }
            print("first page, gzip: \(total) bytes (\(rows.joined(separator: ", ")))")
            #expect(total < 100_000)
        }
    }

    @Test("the service worker caches exactly the shell the server serves, each module index.html loads, and the categories at every level")
    func serviceWorkerShell() async throws {
        try await withServer { s in
            let worker = try await s.get("/sw.js").text
            let list = try #require(worker.firstMatch(of: /const FILES = \[([^\]]*)\]/)?.1)
            let cached = Set(list.split(separator: ",").map { $0.trimmingCharacters(in: CharacterSet(charactersIn: "\" ")) })
            #expect(cached == Set(Self.shell.filter { $0 != "/sw.js" }))
            for path in cached { #expect(try await s.get(path).status == 200, "\(path)") }
            // The categories at every level are kept from the start, for the first page offline.
            let categories = try #require(worker.firstMatch(of: /const CATEGORIES = \[([^\]]*)\]/)?.1)
            let targets = categories.split(separator: ",").map { $0.trimmingCharacters(in: CharacterSet(charactersIn: "\" ")) }
            #expect(targets.count == 4)
            for target in targets {
                let r = try await s.get(target)
                #expect(r.status == 200 && r.header("content-type") == "application/json; charset=utf-8", "\(target)")
            }
            // Every module imported by another, at once or when needed (import("./games.js")), is served and cached.
            for module in ["/app.js", "/api.js", "/charts.js", "/offline.js", "/i18n.js", "/games.js", "/say.js", "/classes.js"] {
                for m in try await s.get(module).text.matches(of: /(?:from |import\()"\.(\/[a-z0-9]+\.js)"/) {
                    #expect(cached.contains(String(m.1)), "\(module) imports \(m.1), which the worker does not cache")
                }
            }
        }
    }

    @Test("the files are found beside the built program; a missing folder is a clear error (exit 66, not a crash)")
    func missingFiles() async throws {
        let found = try #require(WebAssets.bundledFolder)
        #expect(found.hasSuffix("vocab_WebApp.resources/Web"), "\(found)")
        let dir = try TemporaryDirectory("web-missing")
        defer { dir.remove() }
        do {
            _ = try await WebAssets.load(from: dir.file("nowhere"))
            Issue.record("loaded from a folder that does not exist")
        } catch let failure as Failure {
            #expect(failure.code == .webAppMissing && failure.kind.exitCode == 66)
        }
    }

    @Test("a catalog picture file is served as an SVG kept a month, that runs no script; a word names it; nothing outside Pictures/ is")
    func pictureFiles() async throws {
        try await withServer { s in
            let cat = try #require((try await s.get("/v1/words/cat").object()["entries"] as? [[String: Any]])?.first)
            #expect(cat["image"] as? String == "openmoji/1F408.svg")
            let r = try await s.get("/pictures/openmoji/1F408.svg")
            #expect(r.status == 200 && r.header("content-type") == "image/svg+xml")
            #expect(r.header("cache-control") == "public, max-age=2592000")
            #expect(r.header("content-security-policy")?.contains("default-src 'none'") == true)
            #expect(r.text.hasPrefix("<svg"))
            for target in ["/pictures/openmoji/nothing.svg", "/pictures/other/1F408.svg", "/pictures/openmoji/"] {
                #expect(try await s.get(target).status == 404, "\(target)")
            }
        }
    }

    @Test("a letter's name, which look-and-spell says, is served as Ogg kept a month; only a to z")
    func letterNames() async throws {
        try await withServer { s in
            let r = try await s.get("/letters/c.ogg")
            #expect(r.status == 200 && r.header("content-type") == "audio/ogg")
            #expect(r.header("cache-control") == "public, max-age=2592000")
            #expect(r.text.hasPrefix("OggS"))
            for target in ["/letters/C.ogg", "/letters/ab.ogg", "/letters/1.ogg", "/letters/"] {
                #expect(try await s.get(target).status == 404, "\(target)")
            }
        }
    }
}
