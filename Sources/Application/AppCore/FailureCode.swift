/// Every failure code vocab gives, the one list: its kind (and so the exit code and the HTTP
/// status) is fixed here, and a test compares the codes an HTTP body can carry with openapi.json.
/// Front ends and services name a code, never spell it.
public enum FailureCode: String, CaseIterable, Sendable, Codable {
    // notFound
    case noClip = "no_clip"
    case noDefinition = "no_definition"
    case noMatch = "no_match"
    case noReading = "no_reading"
    case noWords = "no_words"
    case notFound = "not_found"
    case notSaved = "not_saved"
    case nothingToExport = "nothing_to_export"
    case nothingToUndo = "nothing_to_undo"
    case unknownCategory = "unknown_category"
    case unknownEntry = "unknown_entry"
    case unknownItem = "unknown_item"
    case unknownLearner = "unknown_learner"
    case unknownRadical = "unknown_radical"
    case unknownReading = "unknown_reading"
    case unknownTitle = "unknown_title"
    case unknownWord = "unknown_word"
    // badInput
    case badAccent = "bad_accent"
    case badAudio = "bad_audio"
    case audioTooLong = "audio_too_long"
    case badClientID = "bad_client_id"
    case badDatabaseURL = "bad_database_url"
    case badDate = "bad_date"
    case badDayStart = "bad_day_start"
    case badFormat = "bad_format"
    case badItem = "bad_item"
    case badJSON = "bad_json"
    case badLanguage = "bad_language"
    case badLevel = "bad_level"
    case badName = "bad_name"
    case badNumber = "bad_number"
    case badPartOfSpeech = "bad_part_of_speech"
    case badPassword = "bad_password"
    case badRadical = "bad_radical"
    case badRating = "bad_rating"
    case badReading = "bad_reading"
    case badRequest = "bad_request"
    case badReviewedAt = "bad_reviewed_at"
    case badSource = "bad_source"
    case badSpeed = "bad_speed"
    case badTimeZone = "bad_time_zone"
    case badTitle = "bad_title"
    case badTones = "bad_tones"
    case badURL = "bad_url"
    case badVersion = "bad_version"
    case bodyTooLarge = "body_too_large"
    case invalidText = "invalid_text"
    case longPassword = "long_password"
    case missingParameter = "missing_parameter"
    case noDatabase = "no_database"
    case outOfRange = "out_of_range"
    case passwordMismatch = "password_mismatch"
    case pathTraversal = "path_traversal"
    case repeatedParameter = "repeated_parameter"
    case shortPassword = "short_password"
    case tooLong = "too_long"
    // methodNotAllowed
    case methodNotAllowed = "method_not_allowed"
    // unsupportedMediaType
    case jsonOnly = "json_only"
    case unsupportedAudio = "unsupported_audio"
    // missingInput
    case dictionaryNotImported = "dictionary_not_imported"
    case emptyDictionary = "empty_dictionary"
    case missingCategories = "missing_categories"
    case missingFile = "missing_file"
    case noCatalog = "no_catalog"
    case noPassword = "no_password"
    case webAppMissing = "web_app_missing"
    // invalidData
    case badConfig = "bad_config"
    case brokenClips = "broken_clips"
    case dictionaryWouldShrink = "dictionary_would_shrink"
    case emptyImport = "empty_import"
    case invalidCatalog = "invalid_catalog"
    case invalidDictionary = "invalid_dictionary"
    case newerDatabase = "newer_database"
    case newerFile = "newer_file"
    case quizImpossible = "quiz_impossible"
    // unavailable
    case audioUnavailable = "audio_unavailable"
    case listenerUnavailable = "listener_unavailable"
    case databaseUnavailable = "database_unavailable"
    case noPlayer = "no_player"
    case playbackFailed = "playback_failed"
    // conflict
    case nameTaken = "name_taken"
    case staleCard = "stale_card"
    // unauthorized
    case unauthorized = "unauthorized"
    // forbidden
    case csrfTokenMissing = "csrf_token_missing"
    // tooManyRequests
    case signInBusy = "sign_in_busy"
    case tooManyAttempts = "too_many_attempts"
    // temporary
    case diskFull = "disk_full"
    // uriTooLong
    case uriTooLong = "uri_too_long"
    // io
    case audioFailed = "audio_failed"
    case databaseError = "database_error"
    case ioError = "io_error"
    // internalError
    case `internal` = "internal"
    // backups
    case backupFailed = "backup_failed"
    case invalidBackup = "invalid_backup"
    case wouldReplace = "would_replace"
    // classes
    case unknownClass = "unknown_class"
    case unknownChild = "unknown_child"
    case unknownAssignment = "unknown_assignment"
    case adultsOnly = "adults_only"
    case childNameTaken = "child_name_taken"
    case childShared = "child_shared"
    case badPictures = "bad_pictures"
    case tooMany = "too_many"
    case signInLocked = "sign_in_locked"
    case notCreator = "not_creator"
    case badInvitation = "bad_invitation"

    public var kind: Failure.Kind {
        switch self {
        case .noClip, .noDefinition, .noMatch, .noReading, .noWords, .notFound, .notSaved, .nothingToExport,
            .nothingToUndo, .unknownCategory, .unknownEntry, .unknownItem, .unknownLearner, .unknownRadical,
            .unknownReading, .unknownTitle, .unknownWord:
            .notFound
        case .badAccent, .badAudio, .audioTooLong, .badClientID, .badDatabaseURL, .badDate, .badDayStart, .badFormat, .badItem, .badJSON, .badLanguage,
            .badLevel,
            .badName, .badNumber, .badPartOfSpeech, .badPassword, .badRadical, .badRating, .badReading, .badRequest, .badReviewedAt,
            .badSource, .badSpeed, .badTimeZone, .badTitle, .badTones, .badURL, .badVersion, .bodyTooLarge, .invalidText,
            .longPassword, .missingParameter, .noDatabase, .outOfRange, .passwordMismatch, .pathTraversal,
            .repeatedParameter, .shortPassword, .tooLong:
            .badInput
        case .methodNotAllowed: .methodNotAllowed
        case .jsonOnly, .unsupportedAudio: .unsupportedMediaType
        case .dictionaryNotImported, .emptyDictionary, .missingCategories, .missingFile, .noCatalog, .noPassword,
            .webAppMissing:
            .missingInput
        case .badConfig, .brokenClips, .dictionaryWouldShrink, .emptyImport, .invalidCatalog, .invalidDictionary,
            .newerDatabase, .newerFile, .quizImpossible:
            .invalidData
        case .audioUnavailable, .listenerUnavailable, .databaseUnavailable, .noPlayer, .playbackFailed: .unavailable
        case .nameTaken, .staleCard: .conflict
        case .unauthorized: .unauthorized
        case .csrfTokenMissing: .forbidden
        case .signInBusy, .tooManyAttempts: .tooManyRequests
        case .uriTooLong: .uriTooLong
        case .diskFull: .temporary
        case .audioFailed, .databaseError, .ioError: .io
        case .unknownClass, .unknownChild, .unknownAssignment: .notFound
        case .adultsOnly, .notCreator: .forbidden
        case .childNameTaken, .childShared: .conflict
        case .badPictures, .tooMany, .badInvitation: .badInput
        case .signInLocked: .tooManyRequests
        case .backupFailed: .io
        case .invalidBackup: .invalidData
        case .wouldReplace: .conflict
        case .internal: .internalError
        }
    }

    /// Whether an HTTP body can carry this code: the server masks file, data and internal
    /// failures as `internal` (their details are for its log), and some codes come only from
    /// commands run at a terminal (passwords typed twice, a sound player, an import).
    public var reachesHTTP: Bool {
        if self == .internal { return true }
        switch kind {
        case .io, .invalidData, .internalError: return false
        default: break
        }
        switch self {
        case .badDatabaseURL, .badTitle, .badURL, .dictionaryWouldShrink, .emptyImport, .missingCategories,
            .noCatalog, .noDatabase, .noDefinition, .noPassword, .noPlayer, .noWords, .notSaved,
            .passwordMismatch, .playbackFailed, .quizImpossible, .unknownLearner, .webAppMissing, .wouldReplace:
            return false
        default: return true
        }
    }
}
