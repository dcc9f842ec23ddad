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

/// SplitMix64: a tiny generator whose sequence depends only on the seed, on every platform,
/// so `--seed` gives the same quiz everywhere.
public struct SeededGenerator: RandomNumberGenerator, Sendable {
    private var state: UInt64

    public init(seed: UInt64) { state = seed }

    public mutating func next() -> UInt64 {
        state &+= 0x9e37_79b9_7f4a_7c15
        var z = state
        z = (z ^ (z >> 30)) &* 0xbf58_476d_1ce4_e5b9
        z = (z ^ (z >> 27)) &* 0x94d0_49bb_1331_11eb
        return z ^ (z >> 31)
    }
}
