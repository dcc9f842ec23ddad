/// The learner's answer. Raw values are the FSRS grades (and Anki's revlog `ease`), so they
/// can be stored as-is and compared against other implementations.
public enum Rating: Int, Sendable, Codable, CaseIterable, Hashable, Comparable {
    case again = 1
    case hard = 2
    case good = 3
    case easy = 4

    public static func < (lhs: Rating, rhs: Rating) -> Bool { lhs.rawValue < rhs.rawValue }
}

/// Where a card is in its life cycle. String raw values keep stored JSON readable and stable
/// if cases are ever reordered.
public enum Phase: String, Sendable, Codable, CaseIterable, Hashable {
    /// Never reviewed.
    case new
    /// Walking the learning steps after its first review.
    case learning
    /// Graduated; scheduled in whole days.
    case review
    /// Forgotten in review; walking the relearning steps.
    case relearning
}

/// FSRS memory: stability in days (the interval at which recall probability falls to 90 %)
/// and difficulty on the 1…10 scale.
public struct MemoryState: Sendable, Codable, Equatable, Hashable {
    public var stability: Double
    public var difficulty: Double

    public init(stability: Double, difficulty: Double) {
        self.stability = stability
        self.difficulty = difficulty
    }
}
