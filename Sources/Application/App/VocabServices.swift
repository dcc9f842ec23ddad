import AppCore
import Audio
import Cache
import Catalog
import Definitions
import FileAccess
import Foundation
import HTTPFetch
import Learners
import Logging
import Mandarin
import SQLiteDB
import Speech
import Store
import Synchronization

/// The parts of vocab and how they are made: speech (one synthesizer a process), the clip
/// tiers, the stores in the home folder. `VocabApp` assembles the running system from them;
/// nothing else holds on to this container.
public final class VocabServices: Sendable {
    public let environment: VocabEnvironment
    public var home: HomeLayout { environment.home }
    private let speech = Mutex<SpeechState>(.notYet)
    private let neural = Mutex<NeuralState>(.notYet)

    public init(environment: VocabEnvironment) {
        self.environment = environment
    }

    // MARK: Catalog

    /// The indexed catalog itself (rebuilt first if the category files changed), for copying elsewhere.
    public func catalogStore() async throws -> (store: SQLiteDocumentStore, status: CatalogIndexer.Status) {
        try DurableFile.createDirectory(home.root)
        return try await CatalogIndexer(source: CatalogSource(directory: environment.categoriesDirectory), databasePath: home.catalogDatabase).open()
    }

    // MARK: PostgreSQL

    /// The catalog as `vocab db push` loaded it, its answers cached in memory.
    public func catalog(on database: ServerDatabase) -> CatalogService {
        CatalogService(store: database.catalog, cache: QueryCache(storage: MemoryCacheStorage()))
    }

    // MARK: Audio

    private enum SpeechState {
        case notYet
        case ready(EspeakSynthesizer)
        case unavailable(String)
    }

    /// The process's synthesizer, made on first use: libespeak-ng keeps one in global state, so a
    /// process has one. Nil, with the reason, where libespeak-ng cannot be loaded.
    public func synthesizer() -> (EspeakSynthesizer?, reason: String?) {
        speech.withLock { state in
            if case .notYet = state {
                do { state = .ready(try EspeakSynthesizer(dataDirectory: home.speechDirectory)) } catch { state = .unavailable(String(describing: error)) }
            }
            switch state {
            case .ready(let s): return (s, nil)
            case .unavailable(let reason): return (nil, reason)
            case .notYet: return (nil, "not started")
            }
        }
    }

    private enum NeuralState {
        case notYet
        case ready(NeuralSynthesizer)
        case unavailable(String)
    }

    /// The process's neural voice, or why there is none: switched off, not installed. Made on
    /// first use without starting anything; its Python processes start on the first word (or
    /// `warmUpNeuralVoice`). The first call decides how many processes it may run.
    public func neuralSynthesizer(processes: Int = 1) -> (NeuralSynthesizer?, reason: String?) {
        neural.withLock { state in
            if case .notYet = state {
                if let directory = environment.neuralVoiceDirectory {
                    switch NeuralVoice.locate(directory) {
                    case .success(let voice): state = .ready(NeuralSynthesizer(voice: voice, processes: processes))
                    case .failure(let error): state = .unavailable(error.description)
                    }
                } else {
                    state = .unavailable("the neural voice is switched off (VOCAB_NEURAL_VOICE=off)")
                }
            }
            switch state {
            case .ready(let s): return (s, nil)
            case .unavailable(let reason): return (nil, reason)
            case .notYet: return (nil, "not started")
            }
        }
    }

    /// How many voice processes a server runs: one per core, at most four (each holds the model,
    /// about 100 MB; a word takes milliseconds, so more rarely help).
    public static var serverVoiceProcesses: Int { min(4, max(1, ProcessInfo.processInfo.activeProcessorCount)) }

    /// For a server: the neural voice's processes, loaded now so that no request waits for the
    /// model. Nil when it started, else why it could not.
    public func warmUpNeuralVoice() async -> String? {
        let (synthesizer, reason) = neuralSynthesizer(processes: Self.serverVoiceProcesses)
        guard let synthesizer else { return reason }
        return await synthesizer.warmUp()?.description
    }

    /// The tiers in order: recorded, legacy, the neural voice, espeak-ng. Without libespeak-ng the
    /// others still serve, and `speechUnavailable` says why espeak-ng does not; without the
    /// neural voice its tier is skipped with the reason.
    public func pronouncer(audioRoot: String? = nil) -> (pronouncer: Pronouncer, speechUnavailable: String?) {
        var sources = localSources(audioRoot: audioRoot) + [neuralSource()]
        let (synthesizer, reason) = synthesizer()
        if let synthesizer { sources.append(SynthesizedClipSource(synthesizer: synthesizer)) }
        return (Pronouncer(sources: sources), reason)
    }

    /// Every tier but espeak-ng's, whose fingerprint needs no synthesizer: enough to fingerprint
    /// clips (planning a render) or to survey them. The neural voice's processes are not started.
    public func planner(audioRoot: String? = nil) -> Pronouncer {
        Pronouncer(sources: localSources(audioRoot: audioRoot) + [neuralSource()])
    }

    private func neuralSource() -> any ClipSource {
        let (synthesizer, reason) = neuralSynthesizer()
        if let synthesizer { return NeuralClipSource(synthesizer: synthesizer) }
        return UnavailableClipSource(tier: .neural, reason: reason ?? "unavailable")
    }

    public func recordedSource(audioRoot: String? = nil) -> RecordedClipSource {
        RecordedClipSource(audioRoot: audioRoot ?? environment.audioDirectory, cacheDirectory: home.remoteClipCache, http: CurlHTTPClient())
    }

    public func legacySource(audioRoot: String? = nil) -> LegacyClipSource {
        LegacyClipSource(audioRoot: audioRoot ?? environment.audioDirectory)
    }

    private func localSources(audioRoot: String?) -> [any ClipSource] {
        [recordedSource(audioRoot: audioRoot), legacySource(audioRoot: audioRoot)]
    }

    /// Rendered clips of `say` and the server, by entry identity.
    public var clipStore: ClipStore { ClipStore(root: home.clipsDirectory) }

    /// What to pronounce for a word in an English accent: its catalog entry when it has one
    /// (with the entry's clip references for the accent), else the text itself.
    public func clipSubject(_ word: String, accent: Accent, catalog: CatalogService) async -> (request: ClipRequest, inCatalog: Bool) {
        if let hit = try? await catalog.entries(for: word).first {
            return (ClipRequest(word: hit.word.word, accent: accent, references: hit.word.audio(for: accent), entry: hit.reference), true)
        }
        return (ClipRequest(word: word, accent: accent, entry: EntryReference(.text, word)), false)
    }

    // MARK: Mandarin

    /// The imported dictionary; one read-only connection per caller (it belongs to one task).
    public func mandarin() throws -> MOEDictionary { try MOEDictionary(path: home.moeDatabase) }

    /// The imported dictionary behind the seam the server asks (`ServerDatabase.mandarin` on PostgreSQL).
    public func mandarinDictionary() -> any MandarinDictionary { SQLiteMandarinDictionary(path: home.moeDatabase) }

    // MARK: Learning

    /// The learner's own file: saved words, downloaded definitions, quiz history.
    public func userStore() throws -> SQLiteDocumentStore {
        try DurableFile.createDirectory(home.root)
        return try SQLiteDocumentStore(path: home.userDatabase, migrator: UserDatabase.migrator)
    }

    /// Learners, libraries, cards and review logs, in user.sqlite beside the documents.
    public func learnerStore() throws -> SQLiteLearnerStore {
        try DurableFile.createDirectory(home.root)
        return try SQLiteLearnerStore(path: home.userDatabase)
    }

    /// The learning service over a learner store; a learner who chose no time zone has this machine's, and days start at 4 am.
    public func learning(catalog: CatalogService, store: any LearnerStore, mandarin: (any MandarinDictionary)? = nil) -> LearningService {
        LearningService(
            store: store, catalog: catalog, mandarin: mandarin ?? mandarinDictionary(),
            days: LocalDays(timeZone: .current), now: environment.clock.now)
    }

    /// `config.json` in the home folder: a missing file is an empty configuration; a broken
    /// one is an error, not silently ignored.
    public func config() throws -> UserConfig {
        guard let data = FileManager.default.contents(atPath: home.configFile) else { return UserConfig() }
        do {
            return try JSONDecoder().decode(UserConfig.self, from: data)
        } catch {
            throw Failure(
                .badConfig, "\(home.configFile) is not valid: expected an object like {\"dictionaryURL\": \"https://…\", \"randomURL\": \"https://…\"}.")
        }
    }

    /// The online dictionary with its saved answers in the user's store.
    public func definitionService(endpoint: Endpoint, options: HTTPRequestOptions, store: any DocumentStore) -> DefinitionService {
        DefinitionService(client: DictionaryAPIClient(http: CurlHTTPClient(), baseURL: endpoint.url, options: options), store: store)
    }
}
