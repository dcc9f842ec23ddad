import Audio
import AudioFile
import CLICore
import Catalog
import Foundation
import HTTPFetch
import Spawning
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

/// What became of playing a clip.
enum PlayOutcome: Equatable {
    case played(by: String)
    /// No player is installed.
    case noPlayer
    /// Every player found failed (no sound device, say): which, and how.
    case failed([String])
}

/// Plays a file through the first player found that succeeds: a player that exits with an
/// error (no sound device, no sound server) has not played it, so the next one is tried.
func playClip(_ path: String, players: [(String, [String])] = defaultPlayers) throws -> PlayOutcome {
    var failures: [String] = []
    for (name, args) in players {
        guard let exe = findExecutable(name) else { continue }
        let ended = try ChildProcess.start(exe, arguments: args + [path]).waitUntilExit()
        if ended == .exited(0) { return .played(by: name) }
        switch ended {
        case .exited(let status): failures.append("\(name) exited with status \(status)")
        case .killed(let signal): failures.append("\(name) was killed by signal \(signal)")
        }
    }
    return failures.isEmpty ? .noPlayer : .failed(failures)
}

let defaultPlayers: [(String, [String])] = [("paplay", []), ("aplay", ["-q"]), ("play", ["-q"]), ("ffplay", ["-nodisp", "-autoexit", "-loglevel", "quiet"])]
