import App
import AppCore
import ArgumentParser
import Audio
import CLICore
import Catalog
import FSRS
import Foundation
import Learners
import Quiz

struct ReviewCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "review",
        abstract: "Review due cards, then new ones up to the day's allowance (FSRS-6 spaced repetition).",
        discussion: """
            Each card shows its front (the word or characters); press Enter to see the back \
            (meanings in Vietnamese and English, IPA, the example at your level; for Mandarin \
            pinyin, bopomofo and senses), then rate how well you remembered it:
              1 Again   2 Hard   3 Good   4 Easy      u undoes the last rating, q stops
            The next time each card is due follows from your ratings (FSRS-6, desired retention \
            0.9). Ratings can be piped in, one per line; then the back is shown at once. Every \
            rating goes into the review log. With --json the cards go to standard error and the \
            ratings, as JSON, to standard output.

            Examples:
              vocab review
              vocab review --play --limit 20
              printf '3\\n4\\nu\\n3\\n' | vocab review --json
              vocab review --user anna
            """)

    @Option(name: .long, parsing: .unconditional, help: "At most this many cards in this session (1-500).") var limit = 50
    @Flag(name: .long, help: "Play each card's clip when it is shown.") var play = false
    @OptionGroup var learner: LearnerOption
    @OptionGroup var options: GlobalOptions

    func validate() throws {
        _ = try checked { () throws(Failure) in try InputRules.bounded(limit, name: "--limit", range: 1...500) }
    }

    func run() async throws {
        try await options.withLearning(self.learner) { app, service, learner in
            let screen = ReviewScreen(json: options.json, interactive: isatty(STDIN_FILENO) != 0)
            let input = LineReader()
            let clips = play ? app.audio.clips().service : nil
            var results: [RatingResult] = []
            var undone = 0
            var shown = 0
            var rated: [(ReviewCard)] = []
            session: while shown < limit {
                let batch = try await service.nextCards(for: learner, limit: min(50, limit - shown))
                guard let card = batch.cards.first else {
                    screen.say(
                        results.isEmpty
                            ? "Nothing to review now." + (batch.nextDue.map { " The next card is due \(Output.until($0))." } ?? "")
                            : "All done for now." + (batch.nextDue.map { " The next card is due \(Output.until($0))." } ?? ""))
                    break
                }
                shown += 1
                screen.front(card, remaining: batch.due + min(batch.newAllowance, batch.cards.count))
                if let clips { await ReviewScreen.play(card, clips: clips, catalog: service.catalog) }
                if screen.interactive {
                    screen.prompt("Enter shows the answer")
                    guard case .line(let line) = input.nextLine(timeout: nil) else { break }
                    if line.trimmingCharacters(in: .whitespaces).lowercased() == "q" { break }
                }
                screen.back(card)
                while true {
                    screen.prompt("1 Again · 2 Hard · 3 Good · 4 Easy · u undo · q stop")
                    guard case .line(let raw) = input.nextLine(timeout: nil) else { break session }
                    let text = raw.trimmingCharacters(in: .whitespaces).lowercased()
                    screen.echo(text)
                    if text == "q" { break session }
                    if text == "u" {
                        do {
                            let (entry, item) = try await service.undo(for: learner)
                            undone += 1
                            // Named as its card was, so that "bat" says which bat.
                            let card = rated.last.flatMap { $0.item == item?.id ? $0 : nil }
                            if !results.isEmpty { results.removeLast() }
                            if !rated.isEmpty { rated.removeLast() }
                            let name = card?.content.label ?? item.map(\.word) ?? "the last card"
                            screen.say("  Undone: \(name) back to how it was before rating \(RatingName.name(entry.rating)).")
                            shown = max(0, shown - 1)
                            continue session
                        } catch let failure as Failure {
                            screen.say("  \(failure.message)")
                            continue
                        }
                    }
                    guard let rating = RatingName.parse(text) else {
                        screen.say("  Rate with 1-4 (Again, Hard, Good, Easy), u to undo, q to stop.")
                        continue
                    }
                    let result = try await service.rate(item: card.item, rating: rating, for: learner, expectedVersion: card.version)
                    results.append(result)
                    rated.append(card)
                    screen.say("  \(RatingName.name(rating).capitalized): next \(Output.until(result.due)).")
                    break
                }
            }
            screen.say("")
            screen.say(
                "Reviewed \(results.count) card\(results.count == 1 ? "" : "s")" + (undone > 0 ? " (\(undone) rating\(undone == 1 ? "" : "s") undone)" : "")
                    + ".")
            if options.json {
                struct Report: Encodable {
                    let learner: String
                    let ratings: [RatingResult]
                    let undone: Int
                }
                try Output.json(Report(learner: learner.name, ratings: results, undone: undone))
            }
        }
    }
}

/// Renders review cards: on stdout, or on stderr when stdout carries JSON.
struct ReviewScreen {
    let json: Bool
    let interactive: Bool

    func say(_ text: String) { json ? Output.error(text) : Output.line(text) }

    func prompt(_ text: String) {
        let line = "\(text) > "
        if json { Output.errorRaw(line) } else { Output.write(line) }
    }

    /// Piped answers are not on screen: repeat them after the prompt.
    func echo(_ text: String) { if !interactive { say(text) } }

    func front(_ card: ReviewCard, remaining: Int) {
        say("")
        let kind = card.phase == .new ? "new" : card.phase.rawValue
        say("── \(card.content.label)    (\(kind) · \(remaining) to go)")
    }

    func back(_ card: ReviewCard) {
        let c = card.content
        if let pinyin = c.pinyin { say("  \(pinyin)" + (c.bopomofo.map { "   \($0)" } ?? "")) }
        if let ipa = c.ipa { say("  /\(ipa.british)/ British · /\(ipa.american)/ American") }
        if let vi = c.vi { say("  \(vi)") }
        for s in c.senses.prefix(4) { say("  " + (s.partOfSpeech.map { "(\($0)) " } ?? "") + s.text) }
        if let example = c.example { say("  “\(example)”") }
    }

    /// Plays the card's clip (catalog and dictionary words; Mandarin has no English voice).
    static func play(_ card: ReviewCard, clips: ClipService, catalog: CatalogService) async {
        guard card.content.source != "moe" else { return }
        let entry = try? await catalog.entries(for: card.content.front).first
        let request = ClipRequest(
            word: card.content.front, accent: .british, references: entry?.word.audio(for: .british),
            entry: entry?.reference ?? EntryReference(.text, card.content.front))
        guard let stored = try? await clips.clip(for: request, format: .wav)
        else { return }
        _ = try? playClip(stored.clip.path)
    }
}

struct ProgressCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "progress",
        abstract: "What is due, how much was reviewed, how well it was remembered, and words learned per category and level.",
        discussion: """
            A word is learned when its stability is at least 21 days (it would still be \
            recalled 9 times in 10 three weeks on). Retention is the share of reviews of cards \
            past learning, over the last 30 days, rated above Again. Days start at local midnight.

            Examples:
              vocab progress
              vocab progress --user anna --json
            """)

    @OptionGroup var learner: LearnerOption
    @OptionGroup var options: GlobalOptions

    func run() async throws {
        try await options.withLearning(self.learner) { service, learner in
            let progress = try await service.progress(of: learner)
            if options.json {
                try Output.json(progress)
                return
            }
            let r = progress.report
            Output.line("Progress of \(progress.learner)")
            Output.line("  Due          today \(r.dueToday) · tomorrow \(r.dueTomorrow) · next 7 days \(r.dueNext7Days) · new \(r.new)")
            Output.line("  Library      \(r.items) item\(r.items == 1 ? "" : "s"), \(r.learned) learned")
            let total = r.reviewsPerDay.reduce(0) { $0 + $1.reviews }
            let bars = r.reviewsPerDay.map { d in Self.bar(d.reviews, max: r.reviewsPerDay.map(\.reviews).max() ?? 0) }.joined()
            Output.line("  Reviews      \(total) in 30 days  \(bars)")
            Output.line(
                "  Retention    "
                    + (r.retention.map { String(format: "%.0f%% of %d reviews", $0 * 100, r.reviewsInRetention) } ?? "no reviews past learning yet"))
            Output.line("  Streak       \(r.streak) day\(r.streak == 1 ? "" : "s")")
            let rows = progress.categories.filter { $0.saved > 0 }
            if !rows.isEmpty {
                Output.line("  Learned by category and level")
                let width = (rows.map { Output.displayWidth($0.category) }.max() ?? 8) + 2
                for row in rows {
                    Output.line(
                        "    \(Output.pad(row.category, width))\(Output.pad(row.level.rawValue, 10))\(row.learned) of \(row.words) learned, \(row.saved) saved")
                }
            }
        }
    }

    static func bar(_ n: Int, max: Int) -> String {
        guard max > 0, n > 0 else { return "·" }
        let levels = ["▁", "▂", "▃", "▄", "▅", "▆", "▇", "█"]
        return levels[min(levels.count - 1, (n * levels.count - 1) / max)]
    }
}

struct ExportCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "export",
        abstract: "Export flashcards for Anki: a package with clips (.apkg) or Anki's CSV import format.",
        discussion: """
            One note per item, with the word on the front (and its clip in an .apkg), meanings, \
            readings and the example on the back. Notes carry a guid made from the item, so \
            importing a newer export into Anki updates the notes instead of adding them again. \
            --from library (the default) exports your library; --category and --level export \
            catalog words instead.

            Examples:
              vocab export --format apkg --out my-words.apkg
              vocab export --format csv --out my-words.csv --user anna
              vocab export --format apkg --category animals --level starters --out animals.apkg
            """)

    enum From: String, ExpressibleByArgument, CaseIterable, Sendable { case library, catalog }

    @Option(name: .long, help: "apkg or csv (default: from the --out extension).") var format: ExportService.Format?
    @Option(name: .long, help: "library (your saved items) or catalog (with --category/--level).") var from: From?
    @Option(name: .long, help: "Catalog words of this category.") var category: String?
    @Option(name: .long, help: "Catalog words of this level.") var level: LevelOption?
    @Option(name: .long, help: "The file to write (- for standard output, with --format; a device or FIFO is written into, a link followed).")
    var out: String
    @OptionGroup var learner: LearnerOption
    @OptionGroup var options: GlobalOptions

    var resolvedFormat: ExportService.Format? { format ?? ExportService.Format(rawValue: (out as NSString).pathExtension.lowercased()) }

    func validate() throws {
        guard resolvedFormat != nil else { throw ValidationError("Give --format apkg or csv, or an --out file ending in .apkg or .csv.") }
        if from == .library, category != nil || level != nil {
            throw ValidationError("--category and --level choose catalog words; they do not go with --from library.")
        }
    }

    func run() async throws {
        try await options.withLearning(self.learner) { app, service, learner in
            let fromCatalog = from == .catalog || category != nil || level != nil
            let items = fromCatalog ? try await service.exportItems(category: category, level: level?.level) : try await service.exportItems(of: learner)
            guard !items.isEmpty else {
                throw Failure(.nothingToExport, fromCatalog ? "no catalog words match." : "the library of \(learner.name) is empty.")
            }
            let deck =
                fromCatalog
                ? "vocab::" + ([category, level?.level.rawValue].compactMap { $0 }.joined(separator: " ").nonEmpty ?? "catalog")
                : "vocab::\(learner.name)"
            let exporter = app.exports()
            // `--out -`: the file goes to standard output, the report to standard error.
            let piped = out == "-"
            let summary = try await exporter.export(
                items, deck: deck, format: resolvedFormat!, to: piped ? out : URL(fileURLWithPath: out).standardizedFileURL.path)
            if options.json {
                try Output.json(summary, toStandardError: piped)
                return
            }
            Output.line(
                "Exported \(summary.notes) note\(summary.notes == 1 ? "" : "s")"
                    + (summary.format == "apkg"
                        ? " with \(summary.clips) clip\(summary.clips == 1 ? "" : "s") and \(summary.pictures) picture\(summary.pictures == 1 ? "" : "s")" : "")
                    + " to \(piped ? "standard output" : summary.path) (deck \(summary.deck)).", toStandardError: piped)
            for (item, reason) in summary.missingClips.sorted(by: { $0.key < $1.key }).prefix(10) { Output.error("  no clip for \(item): \(reason)") }
        }
    }
}

extension ExportService.Format: ExpressibleByArgument {}

extension String {
    fileprivate var nonEmpty: String? { isEmpty ? nil : self }
}
