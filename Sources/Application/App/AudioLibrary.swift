import AppCore
import Audio
import AudioFile
import Catalog
import FileAccess
import Foundation
import Mandarin
import Vocabulary

/// The clips under `Audio/` as a teacher manages them: importing a folder of recordings,
/// surveying which tier answers for each entry, and the references category files make. The
/// CLI's `audio` commands and `validate` come here.
public struct AudioLibrary {
    public let app: VocabApp
    public var audioRoot: String { app.environment.audioDirectory }

    public init(app: VocabApp) { self.app = app }

    // MARK: Import

    /// What files can be imported for: the catalog's entries (English accents) or the MOE
    /// dictionary's titles (Mandarin; the dictionary must be imported).
    public func importTargets(accent: Accent, catalog: () async throws -> CatalogService) async throws -> (ImportTargets, MOEDictionary?) {
        if accent == .mandarin {
            let dictionary = try app.moe()
            return (
                ImportTargets { title in
                    guard let entries = try? dictionary.lookup(title) else { return nil }
                    return MandarinClips.readings(of: entries)
                }, dictionary
            )
        }
        let entries = try await catalog().allEntries()
        return (ImportTargets(entries: entries.map { ($0.reference, $0.word.word) }), nil)
    }

    // MARK: Survey

    /// Which tier answers for each catalog entry (narrowed to a category and level) in each
    /// English accent, and every broken clip, found without the network.
    public func coverage(catalog: CatalogService, category: String?, level: Level?) async throws -> ClipCoverage {
        let entries = try await catalog.allEntries(category: category, level: level)
        let subjects = entries.map { entry in
            ClipCoverage.Subject(
                entry: entry.reference, word: entry.word.word, categories: entry.word.categories,
                levels: entry.word.levels.map(\.rawValue),
                references: Dictionary(
                    uniqueKeysWithValues: Accent.english.compactMap { accent in
                        entry.word.audio(for: accent).map { (accent, $0) }
                    }))
        }
        let speech: Tier = app.audio.neuralSynthesizer().0 != nil ? .neural : .tts
        return ClipCoverage.survey(
            subjects, accents: Accent.english, recorded: app.audio.recordedSource(), legacy: app.audio.legacySource(),
            speech: speech)
    }

    /// Clips imported for Mandarin titles, by tier, and those among them that do not decode as
    /// whole, plausible clips.
    public func mandarinClips() -> (counts: [Tier: Int], broken: [ClipCoverage.Broken]) {
        var counts: [Tier: Int] = [:]
        var broken: [ClipCoverage.Broken] = []
        for tier in [Tier.recorded, .legacy] {
            let base = "\(audioRoot)/\(tier.rawValue)/mandarin/moe"
            guard let files = FileManager.default.enumerator(atPath: base) else { continue }
            for case let relative as String in files where ClipNaming.audioExtensions.contains((relative as NSString).pathExtension.lowercased()) {
                counts[tier, default: 0] += 1
                do {
                    _ = try AudioFile.readChecked(base + "/" + relative)
                } catch {
                    let title = relative.split(separator: "/").first.map(String.init) ?? relative
                    broken.append(
                        ClipCoverage.Broken(
                            entry: "moe:\(title)", word: title, accent: .mandarin, tier: tier,
                            reference: "\(tier.rawValue)/mandarin/moe/\(relative)", reason: String(describing: error)))
                }
            }
        }
        return (counts, broken)
    }

    // MARK: References in category files

    /// Every file reference of the catalog's words (not URLs) that names no file inside
    /// `Audio/`, as validation issues: `validate` reports them with the data's own problems.
    public func referenceIssues(_ files: [CategoryFile], names: [String]) -> [ValidationIssue] {
        var issues: [ValidationIssue] = []
        for (index, file) in files.enumerated() {
            let name = index < names.count ? names[index] : "\(file.id).json"
            for word in file.words {
                for accent in Accent.english {
                    guard let refs = word.audio(for: accent) else { continue }
                    for (tier, reference) in [("recorded", refs.recorded), ("legacy", refs.legacy)] {
                        guard let reference, !reference.hasPrefix("http://"), !reference.hasPrefix("https://") else { continue }
                        do {
                            let path = try ContainedFile.resolve(reference, inside: audioRoot)
                            if !ContainedFile.isRegular(path) {
                                issues.append(
                                    ValidationIssue(
                                        file: name, word: word.word,
                                        message: "audio.\(accent.rawValue).\(tier) '\(reference)' is not a regular file"))
                            }
                        } catch {
                            issues.append(ValidationIssue(file: name, word: word.word, message: "audio.\(accent.rawValue).\(tier): \(error)"))
                        }
                    }
                }
            }
        }
        return issues
    }
}
