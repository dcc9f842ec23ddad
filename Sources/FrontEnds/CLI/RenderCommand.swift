import App
import AppCore
import ArgumentParser
import Audio
import AudioFile
import Catalog
import CLICore
import Foundation

struct RenderCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "render",
        abstract: "Render pronunciations for many words at once, on every core.",
        discussion: """
            Renders a category, a level, both, or (with neither) the whole catalog, one clip per \\
            entry and accent, to DIR/<accent>/catalog/<category>/<word>.<format>, and writes \\
            DIR/manifest.json (or .csv) listing word, entry, accent, tier, source, duration and \\
            path. Clips already rendered from the same clip references are kept, so an \\
            interrupted run resumes where it stopped (--force renders everything again). Each \\
            file is written to a temporary name and renamed, so no half-written clip is left. \\
            A failure on one word is reported and the batch goes on; the exit code is 1 if any \\
            clip failed. espeak-ng can only run one synthesis per process, so the work is \\
            shared among --jobs worker processes.

            Examples:
              vocab render --category animals --level starters --accent british --out clips
              vocab render --accent both --out all-clips --format ogg --manifest csv
            """)

    enum AccentChoice: String, ExpressibleByArgument, CaseIterable, Sendable {
        case british, american, both
        init?(argument: String) {
            if argument.lowercased() == "both" { self = .both; return }
            guard let accent = Accent.parse(argument) else { return nil }
            self = accent == .british ? .british : .american
        }
        var accents: [Accent] { self == .both ? Accent.allCases : [self == .british ? .british : .american] }
    }

    @Option(name: .long, help: "Only this category.")
    var category: String?

    @Option(name: .long, help: "Only words of this level (starters, movers, flyers).")
    var level: LevelOption?

    @Option(name: .long, help: "british, american or both (also uk, us).")
    var accent: AccentChoice = .both

    @Option(name: .long, help: "Output folder.")
    var out: String

    @Option(name: .long, help: "wav, flac or ogg.")
    var format: AudioFormat = .wav

    @Option(name: .long, help: "Manifest format: json or csv.")
    var manifest: RenderManifest.Format = .json

    @Option(name: .long, parsing: .unconditional, help: "Worker processes, 1-64 (default: one per core).")
    var jobs: Int = ProcessInfo.processInfo.activeProcessorCount

    @Flag(name: .long, help: "Render again even clips that already exist.")
    var force = false

    @OptionGroup var options: GlobalOptions

    func validate() throws {
        _ = try checked { () throws(Failure) in try InputRules.bounded(jobs, name: "--jobs", range: 1...64) }
    }

    func run() async throws {
        let catalog = try await options.openCatalog()
        let entries = try await catalog.allEntries(category: category, level: level?.level)
        let store = ClipStore(root: URL(fileURLWithPath: out).standardizedFileURL.path)
        // One clip per entry and accent: a word listed under two categories is one entry; the
        // homographs `May` and `may` are two.
        let jobs = entries.flatMap { entry in
            accent.accents.map { accent in
                RenderJob(entry: entry.reference, word: entry.word.word, accent: accent, references: entry.word.audio(for: accent), format: format)
            }
        }
        let executable = (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? CommandLine.arguments[0]
        let renderer = BatchRenderer(store: store, workers: self.jobs,
                                     workerCommand: [executable, "render-worker", "--audio", options.environment.audioDirectory,
                                                     "--home", options.environment.home.root])
        let (kept, pending) = renderer.plan(jobs, force: force)
        let workers = min(self.jobs, max(1, pending.count))
        if !options.json {
            Output.error("vocab: \(jobs.count) clips: \(kept.count) already rendered, \(pending.count) to render with \(workers) worker(s).")
        }
        let progress = Progress(total: pending.count, terminal: Output.stderrIsTerminal && !options.json)
        let rendered = try renderer.render(pending) { progress.advance(failed: $0.status == .failed) }
        progress.finish()
        var results = kept + rendered
        results.sort { ($0.accent.rawValue, $0.word.lowercased(), $0.entry) < ($1.accent.rawValue, $1.word.lowercased(), $1.entry) }
        let manifestPath = "\(store.root)/manifest.\(manifest.rawValue)"
        try RenderManifest.write(results, to: manifestPath, format: manifest)

        let failed = results.filter { $0.status == .failed }
        let done = rendered.count - failed.count
        if options.json {
            struct Report: Encodable { let manifest: String; let clips: Int; let rendered: Int; let kept: Int; let failed: [RenderResult] }
            try Output.json(Report(manifest: manifestPath, clips: results.count, rendered: done, kept: kept.count, failed: failed))
        } else {
            for f in failed.prefix(20) { Output.error("failed: \(f.word) (\(f.accent.rawValue)): \(f.error ?? "unknown error")") }
            if failed.count > 20 { Output.error("… and \(failed.count - 20) more failures, listed in the manifest.") }
            var tiers: [String: Int] = [:]
            for r in results where r.status == .rendered { tiers[r.tier?.rawValue ?? "?", default: 0] += 1 }
            let byTier = tiers.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }.joined(separator: ", ")
            Output.line("Rendered \(done), kept \(kept.count), failed \(failed.count)"
                + (byTier.isEmpty ? "" : " (\(byTier))") + ". Manifest: \(manifestPath)")
        }
        if !failed.isEmpty { throw ExitCode(1) }
    }
}

extension RenderManifest.Format: ExpressibleByArgument {}

/// The worker side of `vocab render`: renders the jobs in a file into the output folder and
/// streams one JSON result line per clip on standard output.
struct RenderWorkerCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "render-worker", abstract: "Internal: one worker process of 'vocab render'.", shouldDisplay: false)

    @Option(name: .long) var jobsFile: String
    @Option(name: .long) var audio: String
    @Option(name: .long) var home: String
    @Option(name: .long) var out: String

    func run() async throws {
        // Started from a thread that blocks SIGINT and SIGTERM, this process inherited that mask:
        // without this, Ctrl-C on `vocab render` would leave the workers running.
        var signals = sigset_t()
        sigemptyset(&signals)
        sigaddset(&signals, SIGINT)
        sigaddset(&signals, SIGTERM)
        pthread_sigmask(SIG_UNBLOCK, &signals, nil)
        let data = try Data(contentsOf: URL(fileURLWithPath: jobsFile))
        let decoder = JSONDecoder()
        let jobs = try data.split(separator: 0x0A).filter { !$0.isEmpty }.map { try decoder.decode(RenderJob.self, from: $0) }
        let services = VocabServices(environment: VocabEnvironment(categories: nil, home: home))
        let pronouncer = services.pronouncer(audioRoot: audio).pronouncer
        let encoder = JSONEncoder()
        await BatchRenderer.work(jobs, store: ClipStore(root: out), pronouncer: pronouncer) { result in
            guard var line = try? encoder.encode(result) else { return }
            line.append(0x0A)
            FileHandle.standardOutput.write(line)
        }
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
