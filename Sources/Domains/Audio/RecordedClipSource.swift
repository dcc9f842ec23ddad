import AudioFile
import Foundation
import Offloading
import HTTPFetch

/// Tier 1: the word's recorded clip, a file under `Audio/` or an http(s) URL. Remote clips
/// are kept in a disk cache keyed by URL, so a second request does not touch the network.
public struct RecordedClipSource: ClipSource {
    public let tier = Tier.recorded
    public let audioRoot: String
    public let cacheDirectory: String
    public let http: any HTTPClient
    public let options: HTTPRequestOptions

    public init(audioRoot: String, cacheDirectory: String, http: any HTTPClient,
                options: HTTPRequestOptions = HTTPRequestOptions(timeout: 5, connectTimeout: 2, maxBytes: 5 << 20)) {
        self.audioRoot = audioRoot
        self.cacheDirectory = cacheDirectory
        self.http = http
        self.options = options
    }

    public func clip(for request: ClipRequest) async throws -> ResolvedClip {
        guard let reference = request.references?.recorded else {
            throw ClipUnavailable("no recorded clip referenced for \(request.accent.rawValue)")
        }
        if reference.hasPrefix("http://") || reference.hasPrefix("https://") {
            return try await remote(reference)
        }
        let path = try resolve(reference, under: audioRoot)
        return ResolvedClip(tier: tier, source: path, pcm: try await BlockingWork.run { try loadClip(path) })
    }

    /// The cache file for a URL: a hash of the URL, keeping a known audio extension.
    public func cachePath(for url: String) -> String {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for b in url.utf8 { hash = (hash ^ UInt64(b)) &* 0x100_0000_01b3 }
        let ext = URL(string: url).map { $0.pathExtension.lowercased() } ?? ""
        let known = ["wav", "ogg", "oga", "flac", "mp3", "opus"].contains(ext) ? ext : "audio"
        return cacheDirectory + "/" + String(hash, radix: 16) + "." + known
    }

    private func remote(_ url: String) async throws -> ResolvedClip {
        let cached = cachePath(for: url)
        if FileManager.default.fileExists(atPath: cached) {
            if let pcm = try? loadClip(cached) { return ResolvedClip(tier: tier, source: "\(url) (disk cache)", pcm: pcm) }
            try? FileManager.default.removeItem(atPath: cached)   // corrupt: fetch again
        }
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
