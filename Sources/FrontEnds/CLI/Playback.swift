import CLICore
import AudioFile
import Audio
import Catalog
import Foundation
import HTTPFetch
import Speech

extension AudioFormat {
    /// The format a file name asks for, if its extension is one we write.
    static func from(path: String) -> AudioFormat? {
        AudioFormat(rawValue: (path as NSString).pathExtension.lowercased())
    }
}

/// Finds a program on PATH.
func findExecutable(_ name: String) -> String? {
    let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
    for dir in path.split(separator: ":") {
        let candidate = "\(dir)/\(name)"
        if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
    }
    return nil
}

/// Plays a file through the first player found; returns the player's name, or nil if none.
func playClip(_ path: String) throws -> String? {
    let players: [(String, [String])] = [("paplay", []), ("aplay", ["-q"]), ("play", ["-q"]), ("ffplay", ["-nodisp", "-autoexit", "-loglevel", "quiet"])]
    for (name, args) in players {
        guard let exe = findExecutable(name) else { continue }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: exe)
        process.arguments = args + [path]
        try process.run()
        process.waitUntilExit()
        return name
    }
    return nil
}
