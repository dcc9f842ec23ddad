import CLICore
import ArgumentParser
import AudioFile
import Audio
import Catalog
import Foundation

/// One clip to render, as handed to a worker process.
struct RenderJob: Codable, Sendable {
    var word: String
    var accent: Accent
    var references: AudioReferences?
    var path: String
    var format: AudioFormat
}

/// One line of the manifest.
struct RenderResult: Codable, Sendable {
    enum Status: String, Codable { case rendered, kept, failed }
    var word: String
    var accent: Accent
    var status: Status
    var tier: Tier?
    var source: String?
    var duration: Double?
    var path: String
    var error: String?
    var skipped: [TierSkip]?
}

struct RenderCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "render",
        abstract: "Render pronunciations for many words at once, on every core.",
        discussion: """
            Renders a category, a level, both, or (with neither) the whole catalog, to \
            DIR/<accent>/<word>.<format>, and writes DIR/manifest.json (or .csv) listing word, \
            accent, tier, duration and path. Clips already rendered and valid are kept, so an \
            interrupted run resumes where it stopped (--force renders everything again). Each \
            file is written to a temporary name and renamed, so no half-written clip is left. \
            A failure on one word is reported and the batch goes on; the exit code is 1 if any \
            clip failed. espeak-ng can only run one synthesis per process, so the work is \
            shared among --jobs worker processes.

            Examples:
              vocab render --category animals --level starters --accent british --out clips
              vocab render --accent both --out all-clips --format ogg --manifest csv
            """)

    @Option(name: .long, help: "Only this category.")
    var category: String?

    @Option(name: .long, help: "Only words of this level (starters, movers, flyers).")
    var level: LevelOption?

    @Option(name: .long, help: "british, american or both.")
    var accent: String = "both"

    @Option(name: .long, help: "Output folder.")
    var out: String

    @Option(name: .long, help: "wav, flac or ogg.")
    var format: AudioFormat = .wav

    @Option(name: .long, help: "Manifest format: json or csv.")
    var manifest: String = "json"

    @Option(name: .long, help: "Worker processes (default: one per core).")
    var jobs: Int = ProcessInfo.processInfo.activeProcessorCount

    @Flag(name: .long, help: "Render again even clips that already exist.")
    var force = false

    @OptionGroup var options: GlobalOptions

    var accents: [Accent] { accent.lowercased() == "both" ? Accent.allCases : Accent.parse(accent).map { [$0] } ?? [] }

    func validate() throws {
        if accents.isEmpty { throw ValidationError("--accent must be british, american or both.") }
        if !["json", "csv"].contains(manifest) { throw ValidationError("--manifest must be json or csv.") }
        if !(1...64).contains(jobs) { throw ValidationError("--jobs must be between 1 and 64.") }
    }

    func run() async throws {
        let env = options.environment
        let catalog = try await options.openCatalog()
        let words = try await catalog.allWords(category: category, level: level?.level)
        let outDir = URL(fileURLWithPath: out).standardizedFileURL.path
        try FileManager.default.createDirectory(atPath: outDir, withIntermediateDirectories: true)
        let manifestPath = "\(outDir)/manifest.\(manifest)"
        let previous = force ? [:] : Self.previousResults(in: outDir)

        // One clip per (headword, accent): a headword in two categories is rendered once.
        var seen: Set<String> = []
        var pending: [RenderJob] = []
        var results: [RenderResult] = []
        for word in words {
            for accent in accents where seen.insert("\(accent.rawValue)/\(ClipNaming.slug(word.word))").inserted {
                let path = "\(outDir)/\(accent.rawValue)/\(ClipNaming.slug(word.word)).\(format.fileExtension)"
                if !force, let info = try? AudioFile.inspect(path) {
                    let old = previous[path]
                    results.append(RenderResult(word: word.word, accent: accent, status: .kept, tier: old?.tier, source: old?.source,
                                                duration: (info.duration * 1000).rounded() / 1000, path: path))
                } else {
                    pending.append(RenderJob(word: word.word, accent: accent, references: word.audio(for: accent), path: path, format: format))
                }
            }
        }
        if !options.json {
            Output.error("vocab: \(pending.count + results.count) clips: \(results.count) already rendered, \(pending.count) to render with \(min(jobs, max(1, pending.count))) worker(s).")
        }
        let progress = Progress(total: pending.count, terminal: Output.stderrIsTerminal && !options.json)
        let rendered = try WorkerPool(workers: min(jobs, max(1, pending.count)), environment: env, scratch: outDir)
            .run(pending) { progress.advance(failed: $0.status == .failed) }
        progress.finish()
        results += rendered
        results.sort { ($0.accent.rawValue, $0.word.lowercased()) < ($1.accent.rawValue, $1.word.lowercased()) }
        try Self.writeManifest(results, to: manifestPath, csv: manifest == "csv")

        let failed = results.filter { $0.status == .failed }
        if options.json {
            struct Report: Encodable { let manifest: String; let clips: Int; let rendered: Int; let kept: Int; let failed: [RenderResult] }
            try Output.json(Report(manifest: manifestPath, clips: results.count, rendered: rendered.count - failed.count,
                                   kept: results.count - rendered.count, failed: failed))
        } else {
            for f in failed.prefix(20) { Output.error("failed: \(f.word) (\(f.accent.rawValue)): \(f.error ?? "unknown error")") }
            if failed.count > 20 { Output.error("… and \(failed.count - 20) more failures, listed in the manifest.") }
            var tiers: [String: Int] = [:]
            for r in results where r.status == .rendered { tiers[r.tier?.rawValue ?? "?", default: 0] += 1 }
            let byTier = tiers.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }.joined(separator: ", ")
            Output.line("Rendered \(rendered.count - failed.count), kept \(results.count - rendered.count), failed \(failed.count)"
                + (byTier.isEmpty ? "" : " (\(byTier))") + ". Manifest: \(manifestPath)")
        }
        if !failed.isEmpty { throw ExitCode(1) }
    }

    static func previousResults(in dir: String) -> [String: RenderResult] {
        guard let data = FileManager.default.contents(atPath: "\(dir)/manifest.json"),
              let old = try? JSONDecoder().decode([RenderResult].self, from: data) else { return [:] }
        return Dictionary(old.map { ($0.path, $0) }, uniquingKeysWith: { a, _ in a })
    }

    static func writeManifest(_ results: [RenderResult], to path: String, csv: Bool) throws {
        let data: Data
        if csv {
            func field(_ s: String?) -> String {
                let s = s ?? ""
                return s.contains(where: { $0 == "," || $0 == "\"" || $0 == "\n" }) ? "\"" + s.replacingOccurrences(of: "\"", with: "\"\"") + "\"" : s
            }
            var text = "word,accent,status,tier,duration,path,error\n"
            for r in results {
                text += [field(r.word), r.accent.rawValue, r.status.rawValue, r.tier?.rawValue ?? "",
                         r.duration.map { String(format: "%.3f", $0) } ?? "", field(r.path), field(r.error)].joined(separator: ",") + "\n"
            }
            data = Data(text.utf8)
        } else {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
            data = try encoder.encode(results)
        }
        try data.write(to: URL(fileURLWithPath: path), options: .atomic)
    }
}

/// Progress on standard error: a redrawn bar on a terminal, a line every 10% otherwise.
final class Progress: @unchecked Sendable {
    private let lock = NSLock()
    private let total: Int
    private let terminal: Bool
    private let start = Date()
    private var done = 0
    private var failed = 0
    private var lastDecile = 0
    private var lastDraw = Date.distantPast

    init(total: Int, terminal: Bool) {
        self.total = total
        self.terminal = terminal
    }

    func advance(failed didFail: Bool) {
        lock.withLock {
            done += 1
            if didFail { failed += 1 }
            let elapsed = Date().timeIntervalSince(start)
            let rate = elapsed > 0 ? Double(done) / elapsed : 0
            let eta = rate > 0 ? Double(total - done) / rate : 0
            if terminal {
                guard Date().timeIntervalSince(lastDraw) > 0.1 || done == total else { return }
                lastDraw = Date()
                let width = 30, filled = total > 0 ? width * done / total : width
                let bar = String(repeating: "█", count: filled) + String(repeating: "░", count: width - filled)
                Output.errorRaw(String(format: "\r%@ %d/%d  %.1f clips/s  ETA %@%@", bar, done, total, rate, Self.clock(eta),
                                       failed > 0 ? "  \(failed) failed" : ""))
            } else {
                let decile = total > 0 ? done * 10 / total : 10
                guard decile > lastDecile else { return }
                lastDecile = decile
                Output.error(String(format: "render: %d/%d (%d%%), %.1f clips/s, ETA %@%@", done, total, decile * 10, rate,
                                    Self.clock(eta), failed > 0 ? ", \(failed) failed" : ""))
            }
        }
    }

    func finish() { if terminal && total > 0 { Output.errorRaw("\n") } }

    static func clock(_ seconds: Double) -> String {
        let s = Int(seconds.rounded())
        return String(format: "%d:%02d", s / 60, s % 60)
    }
}
