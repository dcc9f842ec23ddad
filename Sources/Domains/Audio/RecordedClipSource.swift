import AudioFile
import FileAccess
import Foundation
import HTTPFetch
import Offloading

/// Tier 1: the entry's recorded clip. In order: the clip imported for it (`Audio/recorded/
/// <accent>/<source>/<id>.wav`, written by `vocab audio import`), then the word's recorded
/// reference, a file under `Audio/` or an http(s) URL. Remote clips are kept in a disk cache
/// keyed by URL, so a second request does not touch the network; a URL that failed is
/// remembered for `failureMemory` seconds (a marker beside the cache entry, so `say`, the
/// render workers and the server all see it), so a slow or broken URL costs its timeout once,
/// not on every request.
public struct RecordedClipSource: ClipSource {
    public let tier = Tier.recorded
    public let audioRoot: String
    public let cacheDirectory: String
    public let http: any HTTPClient
    public let options: HTTPRequestOptions
    public let failureMemory: Double

    public init(
        audioRoot: String, cacheDirectory: String, http: any HTTPClient,
        options: HTTPRequestOptions = HTTPRequestOptions(timeout: 5, connectTimeout: 2, maxBytes: 5 << 20),
        failureMemory: Double = 600
    ) {
        self.audioRoot = audioRoot
        self.cacheDirectory = cacheDirectory
        self.http = http
        self.options = options
        self.failureMemory = failureMemory
    }

    public func clip(for request: ClipRequest) async throws -> ResolvedClip {
        if let imported = ImportedClips.path(tier: .recorded, request: request, audioRoot: audioRoot), ContainedFile.isRegular(imported) {
            let path = try resolve(String(imported.dropFirst(audioRoot.count + 1)), under: audioRoot)
            return ResolvedClip(tier: tier, source: path, pcm: try await BlockingWork.run { try loadClip(path) })
        }
        guard let reference = request.references?.recorded else {
            throw ClipUnavailable("no recorded clip for \(request.accent.rawValue) (none imported, none referenced)", absent: true)
        }
        if Self.isURL(reference) {
            return try await remote(reference)
        }
        let path = try resolve(reference, under: audioRoot)
        return ResolvedClip(tier: tier, source: path, pcm: try await BlockingWork.run { try loadClip(path) })
    }

    public func fingerprint(for request: ClipRequest) -> String {
        var parts: [String] = []
        if let imported = ImportedClips.path(tier: .recorded, request: request, audioRoot: audioRoot) {
            parts.append("imported:" + fileStamp(imported))
        }
        if let reference = request.references?.recorded {
            if Self.isURL(reference) {
                // A remembered failure is forgotten with time, which no file's stamp shows.
                StampWitness.current?.dependsOnMoreThanFiles()
                let cached = cachePath(for: reference)
                let failed = rememberedFailure(for: reference).map { "failed@\($0.since)" } ?? "try"
                parts.append("url:\(reference):cache=\(fileStamp(cached)):\(failed)")
            } else {
                parts.append("ref:\(reference):" + fileStamp(audioRoot + "/" + reference))
            }
        }
        return parts.joined(separator: ",")
    }

    static func isURL(_ reference: String) -> Bool { reference.hasPrefix("http://") || reference.hasPrefix("https://") }

    /// The cache file for a URL: a hash of the URL, keeping a known audio extension.
    public func cachePath(for url: String) -> String {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for b in url.utf8 { hash = (hash ^ UInt64(b)) &* 0x100_0000_01b3 }
        let ext = URL(string: url).map { $0.pathExtension.lowercased() } ?? ""
        let known = ["wav", "ogg", "oga", "flac", "mp3", "opus"].contains(ext) ? ext : "audio"
        return cacheDirectory + "/" + String(hash, radix: 16) + "." + known
    }

    /// Where a URL's last failure is remembered: its reason, dated by the file's time.
    func failurePath(for url: String) -> String { cachePath(for: url) + ".failed" }

    /// The reason and time (seconds since 1970) of a failure of `url` within `failureMemory`.
    public func rememberedFailure(for url: String) -> (reason: String, since: Int)? {
        let path = failurePath(for: url)
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        let age = Date().timeIntervalSince1970 - Double(info.st_mtim.tv_sec)
        guard age >= 0, age < failureMemory else { return nil }
        let reason = (try? String(contentsOfFile: path, encoding: .utf8)) ?? "failed"
        return (reason, Int(info.st_mtim.tv_sec))
    }

    private func remember(_ failure: ClipUnavailable, for url: String) {
        try? FileManager.default.createDirectory(atPath: cacheDirectory, withIntermediateDirectories: true)
        try? DurableFile.write(Array(failure.reason.utf8), to: failurePath(for: url), durable: false)
    }

    private func remote(_ url: String) async throws -> ResolvedClip {
        let cached = cachePath(for: url)
        if FileManager.default.fileExists(atPath: cached) {
            if let pcm = try? loadClip(cached) { return ResolvedClip(tier: tier, source: "\(url) (disk cache)", pcm: pcm) }
            try? FileManager.default.removeItem(atPath: cached) // corrupt: fetch again
        }
        if let failure = rememberedFailure(for: url) {
            let minutes = max(1, Int((Double(failure.since) + failureMemory - Date().timeIntervalSince1970) / 60 + 0.5))
            throw ClipUnavailable("\(failure.reason) (remembered; tried again in about \(minutes) min)")
        }
        do {
            return try await fetch(url, into: cached)
        } catch let failure as ClipUnavailable {
            remember(failure, for: url)
            throw failure
        }
    }

    private func fetch(_ url: String, into cached: String) async throws -> ResolvedClip {
        let response: HTTPResponse
        do {
            response = try await http.get(url, options: options)
        } catch let error as HTTPError {
            throw ClipUnavailable(error.description)
        }
        guard response.status == 200 else { throw ClipUnavailable("HTTP \(response.status) from \(url)") }
        if let type = response.mediaType, !Self.acceptable(type) {
            throw ClipUnavailable("\(url) is \(type), not audio")
        }
        guard !response.body.isEmpty else { throw ClipUnavailable("empty body from \(url)") }
        try FileManager.default.createDirectory(atPath: cacheDirectory, withIntermediateDirectories: true)
        let temporary = cached + ".\(getpid()).part"
        try Data(response.body).write(to: URL(fileURLWithPath: temporary))
        do {
            let pcm = try loadClip(temporary)
            guard rename(temporary, cached) == 0 else { throw ClipUnavailable("cannot store \(cached)") }
            try? FileManager.default.removeItem(atPath: failurePath(for: url))
            return ResolvedClip(tier: tier, source: url, pcm: pcm)
        } catch {
            try? FileManager.default.removeItem(atPath: temporary)
            throw error
        }
    }

    static func acceptable(_ mediaType: String) -> Bool {
        mediaType.hasPrefix("audio/") || mediaType == "application/octet-stream" || mediaType == "application/ogg"
    }
}
