import Foundation

/// The time the quiz countdown reads. A protocol so tests move time forward themselves
/// instead of sleeping.
public protocol QuizClock: Sendable {
    func now() -> Date
}

public struct SystemClock: QuizClock {
    public init() {}
    public func now() -> Date { Date() }
}
