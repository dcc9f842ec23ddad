import App
import AppCore
import ArgumentParser
import Audio
import AudioFile
import CLICore
import Catalog
import Foundation
import Mandarin
import Speech

struct RenderCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "render",
        abstract: "Render pronunciations for many words at once, on every core.",
        discussion: """
            Renders a category, a level, both, or (with neither) the whole catalog, one clip per \
            entry and accent, to DIR/<accent>/catalog/<category>/<word>.<format>, and writes \
            DIR/manifest.json (or .csv) listing word, entry, accent, tier, source, duration and \
            path. Every clip comes from the first tier that has a usable one (recorded, legacy, \
            the neural voice for English, espeak-ng), trimmed and brought to the same loudness (-20 LUFS); the same word gives \
            the same bytes whatever else is in the batch.

            A clip already rendered from the same inputs is kept, so an interrupted run resumes \
            where it stopped. The inputs include the file each tier would use (its size and \
            time) and whether it exists: after 'vocab audio import', a new legacy file or a \
            removed recording, only the clips it affects are rendered again (--force renders \
            everything). Each file is written to a temporary name and renamed, so no \
            half-written clip is left. A failure on one word is reported and the batch goes on; \
            the exit code is 1 if any clip failed. Clips that fell back past a broken recording \
            are counted in the summary ('vocab audio status' lists them with their reasons). \
            espeak-ng can run one synthesis per process, so the work is shared among --jobs \
            worker processes.

            Mandarin (after 'vocab import moe'): --moe FILE renders the titles listed in FILE, \
            one per line (a reading may follow the title: '行 háng'; '-' reads standard input); \
            --moe-strokes N renders the characters with N strokes and --moe-radical R those \
            under a radical (both together: N strokes under R). Each title gets one clip per \
            reading (--first-reading: only the first), spoken from its pinyin, to \
            DIR/mandarin/moe/<title>/<reading>.<format>.

            Examples:
              vocab render --category animals --level starters --accent british --out clips
              vocab render --accent both --out all-clips --format ogg --manifest csv
              vocab render --moe titles.txt --out moe-clips
              vocab render --moe-strokes 6 --moe-radical 行 --out moe-clips
              printf '銀行\\n行 háng\\n' | vocab render --moe - --out moe-clips
            """)

    enum AccentChoice: String, ExpressibleByArgument, CaseIterable, Sendable {
        case british, american, both
        init?(argument: String) {
            if argument.lowercased() == "both" {
                self = .both
                return
            }
            guard let accent = Accent.parse(argument), accent.isEnglish else { return nil }
            self = accent == .british ? .british : .american
        }
        var accents: [Accent] { self == .both ? Accent.english : [self == .british ? .british : .american] }
    }

    @Option(name: .long, help: "Only this category.")
    var category: String?

    @Option(name: .long, help: "Only words of this level (starters, movers, flyers).")
    var level: LevelOption?

    @Option(name: .long, help: "british, american or both (also uk, us).")
    var accent: AccentChoice = .both

    @Option(name: .long, help: ArgumentHelp("Mandarin: render the titles listed in this file, one per line ('-': standard input).", valueName: "file"))
    var moe: String?

    @Option(name: .long, parsing: .unconditional, help: ArgumentHelp("Mandarin: render the characters with this many strokes.", valueName: "n"))
    var moeStrokes: Int?

    @Option(name: .long, help: ArgumentHelp("Mandarin: render the characters under this radical (水, or a variant such as 氵).", valueName: "radical"))
    var moeRadical: String?

    @Flag(name: .long, help: "Mandarin: only the first reading of each title.")
    var firstReading = false

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

    @Option(name: .long, help: ArgumentHelp("Pace, 0.5-1.5 (0.75 is slower); each pace is a clip of its own (<word>@0.75.wav).", valueName: "pace"))
    var speed: String?

    @OptionGroup var options: GlobalOptions

    var isMandarin: Bool { moe != nil || moeStrokes != nil || moeRadical != nil }

    func validate() throws {
        _ = try checked { () throws(Failure) in try InputRules.bounded(jobs, name: "--jobs", range: 1...64) }
        if let speed { _ = try checked { () throws(Failure) in try InputRules.speed(speed) } }
        if isMandarin, category != nil || level != nil {
            throw ValidationError("--category and --level select catalog words; they do not go with --moe, --moe-strokes or --moe-radical.")
        }
        if moe != nil, moeStrokes != nil || moeRadical != nil {
            throw ValidationError("--moe reads titles from a file; use either it or --moe-strokes/--moe-radical.")
        }
        if firstReading, !isMandarin { throw ValidationError("--first-reading is for Mandarin titles (--moe, --moe-strokes, --moe-radical).") }
        if let moeStrokes { _ = try checked { () throws(Failure) in try InputRules.bounded(moeStrokes, name: "--moe-strokes", range: Limits.strokes) } }
        if let moeRadical { _ = try RadicalInput.check(moeRadical) }
    }

    func run() async throws {
        let app = try options.app()
        let store = ClipStore(root: URL(fileURLWithPath: out).standardizedFileURL.path)
        let executable = (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? CommandLine.arguments[0]
        let renderer = BatchRenderer(
            store: store, workers: self.jobs,
            workerCommand: [
                executable, "render-worker", "--audio", options.environment.audioDirectory,
                "--home", options.environment.home.root, "--parent", "\(getpid())",
            ],
            planner: app.audio.planner())
        // The workers start while the jobs are listed and planned; they wait for their first job.
        let started = try renderer.startWorkers()
        defer { started.finish() }
        var jobs = isMandarin ? try mandarinJobs(app) : try await catalogJobs(app)
        if let speed {
            let pace = try InputRules.speed(speed)
            for i in jobs.indices { jobs[i].speed = pace }
        }
        let (kept, pending) = renderer.plan(jobs, force: force)
        let workers = min(self.jobs, max(1, pending.count))
        if !options.json {
            Output.error("vocab: \(jobs.count) clips: \(kept.count) already rendered, \(pending.count) to render with \(workers) worker(s).")
        }
        let progress = Progress(total: pending.count, terminal: Output.stderrIsTerminal && !options.json)
        let rendered = try renderer.render(pending, with: started) { progress.advance(failed: $0.status == .failed) }
        progress.finish()
        // Sorted by position: moving whole results around in the sort took as long as writing the manifest.
        let unsorted = kept + rendered
        let keys = unsorted.map { ($0.accent.rawValue, $0.word.lowercased(), $0.entry, $0.reading ?? "") }
        let results = keys.indices.sorted { keys[$0] < keys[$1] }.map { unsorted[$0] }
        let manifestPath = "\(store.root)/manifest.\(manifest.rawValue)"
        let failed = results.filter { $0.status == .failed }
        let fellBack = rendered.filter { !$0.brokenSkips.isEmpty }
        let done = rendered.count - failed.count
        // A full disk fails every clip after it the same way: one failure, the one a rating or
        // an import on a full disk reports (exit 75), with what was kept.
        if !failed.isEmpty, AudioFile.noSpaceLeft(store.root) {
            try? RenderManifest.write(results, to: manifestPath, format: manifest)
            throw Failure(
                .diskFull,
                "the disk is full: \(done) of \(pending.count) clips were stored, \(failed.count) were not. Run the same command again once there is space; the clips made are kept."
            )
        }
        try RenderManifest.write(results, to: manifestPath, format: manifest)
        if options.json {
            struct Report: Encodable {
                let manifest: String
                let clips: Int
                let rendered: Int
                let kept: Int
                let failed: [RenderResult]
                let fellBack: [RenderResult]
            }
            try Output.json(Report(manifest: manifestPath, clips: results.count, rendered: done, kept: kept.count, failed: failed, fellBack: fellBack))
        } else {
            for f in failed.prefix(20) { Output.error("failed: \(f.word) (\(f.accent.rawValue)): \(f.error ?? "unknown error")") }
            if failed.count > 20 { Output.error("… and \(failed.count - 20) more failures, listed in the manifest.") }
            for r in fellBack.prefix(10) {
                let why = r.brokenSkips.map { "\($0.tier.rawValue): \($0.reason)" }.joined(separator: "; ")
                Output.error("fell back to \(r.tier?.rawValue ?? "?"): \(r.word) (\(r.accent.rawValue)): \(why)")
            }
            if fellBack.count > 10 { Output.error("… and \(fellBack.count - 10) more; 'vocab audio status' lists every broken clip.") }
            var tiers: [String: Int] = [:]
            for r in results where r.status == .rendered { tiers[r.tier?.rawValue ?? "?", default: 0] += 1 }
            let byTier = tiers.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }.joined(separator: ", ")
            Output.line(
                "Rendered \(done), kept \(kept.count), failed \(failed.count)"
                    + (byTier.isEmpty ? "" : " (\(byTier))")
                    + (fellBack.isEmpty ? "" : "; \(fellBack.count) fell back past a broken recorded or legacy clip")
                    + ". Manifest: \(manifestPath)")
        }
        if !failed.isEmpty { throw ExitCode(1) }
    }

    /// One job per entry and accent: a word listed under two categories is one entry; the
    /// homographs `May` and `may` are two.
    private func catalogJobs(_ app: VocabApp) async throws -> [RenderJob] {
        let catalog = try await app.catalog()
        let entries = try await catalog.allEntries(category: category, level: level?.level)
        return entries.flatMap { entry in
            accent.accents.map { accent in
                RenderJob(entry: entry.reference, word: entry.word.word, accent: accent, references: entry.word.audio(for: accent), format: format)
            }
        }
    }

    /// One job per title and reading (or first reading).
    private func mandarinJobs(_ app: VocabApp) throws -> [RenderJob] {
        let dictionary = try app.moe()
        var wanted: [(title: String, reading: String?)] = []
        if let moe {
            let text: String
            if moe == "-" {
                text = String(decoding: FileHandle.standardInput.readDataToEndOfFile(), as: UTF8.self)
            } else {
                guard let data = FileManager.default.contents(atPath: moe) else {
                    throw Failure(.missingFile, "cannot read the title list \(moe).")
                }
                text = String(decoding: data, as: UTF8.self)
            }
            for line in text.split(whereSeparator: \.isNewline) {
                let trimmed = line.trimmingCharacters(in: .whitespaces)
                guard !trimmed.isEmpty, !trimmed.hasPrefix("#") else { continue }
                let (title, reading) = ClipNaming.splitTitle(trimmed)
                guard let title else {
                    throw Failure(.badTitle, "'\(Failure.quote(trimmed))' in \(moe) is not a Mandarin title (one title a line, a reading may follow).")
                }
                wanted.append((title, reading))
            }
        } else {
            let radical = try moeRadical.map { try RadicalInput.check($0) }
            let list: CharacterList
            if let moeStrokes {
                list = try dictionary.characters(strokes: moeStrokes, radical: radical, limit: Int.max / 2)
            } else {
                list = try dictionary.characters(radical: radical ?? "", limit: Int.max / 2)
            }
            wanted = list.characters.map { ($0.title, nil) }
        }
        var jobs: [RenderJob] = []
        var skipped: [String] = []
        for (title, reading) in wanted {
            let readings: [String]
            do {
                readings = MandarinClips.readings(of: try dictionary.lookup(title))
            } catch let error as MOEError {
                if case .unknownTitle = error, moe != nil { throw error }
                skipped.append(title)
                continue
            }
            let chosen: [String]
            if let reading {
                chosen = [try MandarinClips.request(title: title, readings: readings, wanted: reading).reading ?? reading]
            } else {
                chosen = firstReading ? Array(readings.prefix(1)) : readings
            }
            if chosen.isEmpty { skipped.append(title) }
            for pinyin in chosen {
                let request = try MandarinClips.request(title: title, readings: readings, wanted: pinyin)
                jobs.append(
                    RenderJob(
                        entry: EntryReference(.moe, title), word: title, accent: .mandarin, references: nil, format: format,
                        reading: request.reading, spoken: request.spoken, isFirstReading: request.isFirstReading))
            }
        }
        if !skipped.isEmpty, !options.json {
            Output.error(
                "vocab: \(skipped.count) title(s) have no reading in pinyin and are skipped: \(skipped.prefix(8).joined(separator: ", "))\(skipped.count > 8 ? ", …" : "")."
            )
        }
        return jobs
    }
}

extension RenderManifest.Format: ExpressibleByArgument {}

/// The worker side of `vocab render`: renders the jobs that arrive on standard input into the
/// output folder and streams one result line per clip on standard output (`RenderWire`).
struct RenderWorkerCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "render-worker", abstract: "Internal: one worker process of 'vocab render'.", shouldDisplay: false)

    @Option(name: .long) var audio: String
    @Option(name: .long) var home: String
    @Option(name: .long) var out: String
    /// The render that started this worker: the worker ends when it is gone.
    @Option(name: .long) var parent: Int32?

    func run() async throws {
        if let parent { SocketChild.exitWhenOrphaned(parent: parent) }
        // Started from a thread that blocks SIGINT and SIGTERM, this process inherited that mask:
        // without this, Ctrl-C on `vocab render` would leave the workers running.
        var signals = sigset_t()
        sigemptyset(&signals)
        sigaddset(&signals, SIGINT)
        sigaddset(&signals, SIGTERM)
        pthread_sigmask(SIG_UNBLOCK, &signals, nil)
        let audio = try VocabApp(environment: VocabEnvironment(categories: nil, home: home), database: .embedded, use: .command).audio
        let pronouncer = audio.pronouncer(audioRoot: self.audio).pronouncer
        // The model loads (about a second) while the parent lists and plans the jobs.
        _ = await audio.neuralSynthesizer().0?.warmUp()
        await BatchRenderer.work(input: STDIN_FILENO, store: ClipStore(root: out), pronouncer: pronouncer) { result in
            Output.write(RenderWire.line(result))
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
                let width = 30
                let filled = total > 0 ? width * done / total : width
                let bar = String(repeating: "█", count: filled) + String(repeating: "░", count: width - filled)
                Output.errorRaw(
                    String(
                        format: "\r%@ %d/%d  %.1f clips/s  ETA %@%@", bar, done, total, rate, Self.clock(eta),
                        failed > 0 ? "  \(failed) failed" : ""))
            } else {
                let decile = total > 0 ? done * 10 / total : 10
                guard decile > lastDecile else { return }
                lastDecile = decile
                Output.error(
                    String(
                        format: "render: %d/%d (%d%%), %.1f clips/s, ETA %@%@", done, total, decile * 10, rate,
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
