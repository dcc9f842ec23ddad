import AppCore
import Foundation
import HTTPTransport
import HTTPTypes
import Offloading

/// The web app `vocab serve` answers at `/`: the files of Web/ (HTML, JavaScript modules, CSS,
/// the service worker, icons), shipped as this module's resources beside the binary (`make
/// install` copies the bundle next to vocab-full) and read once when the server starts. Each
/// becomes a `Representation`, so it gets the same ETag, gzip and 304 handling as the API.
public struct WebAssets: Sendable {
    /// Representations by URL path ("/", "/app.js", …).
    public let files: [String: Representation]

    public init(files: [String: Representation]) { self.files = files }

    /// The same files and the catalog's pictures (`/pictures/<set>/<name>.svg`).
    public func adding(_ pictures: WebAssets) -> WebAssets { WebAssets(files: files.merging(pictures.files) { old, _ in old }) }

    /// A picture file changes only when its set is imported again: kept a month by browsers
    /// and the service worker, revalidated by its ETag after that.
    public static let pictureCacheControl = "public, max-age=2592000"

    /// An SVG is a document that could carry script: served so that none of it runs.
    static let pictureHeaders: HTTPFields = [
        HTTPField.Name("Content-Security-Policy")!: "default-src 'none'; style-src 'unsafe-inline'; sandbox",
        HTTPField.Name("X-Content-Type-Options")!: "nosniff",
    ]

    /// The catalog's picture files: every `<set>/<name>.svg` of `folder` (Pictures/) for the
    /// sets `sets`, each at most `limit` bytes (the validator refuses larger ones, so a larger
    /// file here is left out rather than served). A missing folder serves no pictures: pages
    /// then show each entry's emoji.
    public static func pictures(from folder: String, sets: [String], limit: Int) async throws -> WebAssets {
        let files = try await BlockingWork.run { () throws -> [String: Representation] in
            let fm = FileManager.default
            var files: [String: Representation] = [:]
            for set in sets {
                guard let names = try? fm.contentsOfDirectory(atPath: folder + "/" + set) else { continue }
                for name in names.sorted() where name.hasSuffix(".svg") && !name.hasPrefix(".") {
                    let path = folder + "/" + set + "/" + name
                    guard let size = (try? fm.attributesOfItem(atPath: path))?[.size] as? Int, size <= limit else { continue }
                    let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: path)))
                    files["/pictures/\(set)/\(name)"] = Representation(
                        bytes: bytes, contentType: "image/svg+xml", cacheControl: pictureCacheControl, compressible: true,
                        headers: pictureHeaders)
                }
            }
            return files
        }
        return WebAssets(files: files)
    }

    /// The letter names a to z (`Audio/letters/a.ogg`) at `/letters/a.ogg`: recordings that
    /// change only with a release, kept a month like the pictures.
    public static func letters(from folder: String) async throws -> WebAssets {
        let files = try await BlockingWork.run { () throws -> [String: Representation] in
            var files: [String: Representation] = [:]
            for letter in "abcdefghijklmnopqrstuvwxyz" {
                let path = folder + "/\(letter).ogg"
                guard FileManager.default.fileExists(atPath: path) else { continue }
                files["/letters/\(letter).ogg"] = Representation(
                    bytes: try [UInt8](Data(contentsOf: URL(fileURLWithPath: path))), contentType: "audio/ogg",
                    cacheControl: pictureCacheControl, compressible: false, headers: [HTTPField.Name("X-Content-Type-Options")!: "nosniff"])
            }
            return files
        }
        return WebAssets(files: files)
    }

    public subscript(path: String) -> Representation? { files[path] }

    /// Revalidated on every use: the files change only with a new release, and a 304 on
    /// loopback costs less than a shell whose modules disagree after an upgrade. The service
    /// worker answers from its cache first, so repeat visits do not wait for this.
    public static let cacheControl = "no-cache"

    /// The pages are same-origin only: scripts, styles, media and requests from this server,
    /// no inline script, no framing.
    static let pageHeaders: HTTPFields = [
        HTTPField.Name("Content-Security-Policy")!:
            "default-src 'self'; img-src 'self' data:; media-src 'self' blob:; object-src 'none'; base-uri 'none'; frame-ancestors 'none'",
        HTTPField.Name("X-Content-Type-Options")!: "nosniff",
        HTTPField.Name("Referrer-Policy")!: "no-referrer",
    ]

    /// Media types by file extension; files of any other kind are not served.
    public static let mediaTypes: [String: (type: String, compressible: Bool)] = [
        "html": ("text/html; charset=utf-8", true),
        "js": ("text/javascript; charset=utf-8", true),
        "css": ("text/css; charset=utf-8", true),
        "svg": ("image/svg+xml", true),
        "webmanifest": ("application/manifest+json", true),
        "png": ("image/png", false),
    ]

    /// The folder shipped with the program: the resource bundle beside the executable (where
    /// `swift build` puts it, and `make install` copies it), else Web/ in the source tree this
    /// program was built from. Found by hand rather than through `Bundle.module`, which stops
    /// the process when its bundle is missing; here that is a clear error instead.
    public static var bundledFolder: String? {
        let fm = FileManager.default
        let candidates = [
            Bundle.main.bundleURL.appendingPathComponent("vocab_WebApp.resources/Web").path,
            URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Web").path,
        ]
        return candidates.first { fm.fileExists(atPath: $0 + "/index.html") }
    }

    /// Reads every file of `folder` (the bundled one by default; off the cooperative threads,
    /// finding the bundle included); index.html is also `/`.
    public static func load(from folder: String? = nil) async throws -> WebAssets {
        let files = try await BlockingWork.run { () throws -> [String: Representation] in
            guard let folder = folder ?? bundledFolder else { throw missing("Web") }
            let fm = FileManager.default
            guard let names = try? fm.contentsOfDirectory(atPath: folder) else { throw missing(folder) }
            var files: [String: Representation] = [:]
            for name in names.sorted() {
                guard let ext = name.split(separator: ".").last.map(String.init), let media = mediaTypes[ext] else { continue }
                let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: folder + "/" + name)))
                files["/" + name] = Representation(
                    bytes: bytes, contentType: media.type, cacheControl: cacheControl,
                    compressible: media.compressible,
                    headers: ext == "html"
                        ? pageHeaders
                        : [
                            HTTPField.Name("X-Content-Type-Options")!: "nosniff"
                        ])
            }
            guard let index = files["/index.html"] else { throw missing(folder + "/index.html") }
            files["/"] = index
            return files
        }
        return WebAssets(files: files)
    }
}

/// The web app's files are not where the program expects them: a broken installation.
func missing(_ path: String) -> Failure {
    Failure(
        .webAppMissing, "the web app's files are missing (\(path)).",
        hint: "Reinstall vocab ('make install' copies the web app beside vocab-full).")
}
