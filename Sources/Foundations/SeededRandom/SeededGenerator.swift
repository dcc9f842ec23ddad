/// SplitMix64 (Steele, Lea & Flood 2014): a tiny, fast generator whose whole state is one
/// UInt64, so draws can be made reproducible by seeding it from stable data: FSRS seeds it from
/// the card id mixed with its review count (as Anki does) so a retried rating gets the same
/// fuzz, and a quiz from its seed so the same seed asks the same questions.
/// Not cryptographically secure.
public struct SeededGenerator: RandomNumberGenerator, Sendable, Codable, Hashable {
    public private(set) var state: UInt64

    public init(seed: UInt64) {
        state = seed
    }

    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

extension RandomNumberGenerator {
    /// Uniform in [0, 1) from the top 53 bits. Spelled out here rather than using
    /// `Double.random(in:using:)` so a given seed yields the same fuzz on every Swift version.
    public mutating func unitInterval() -> Double {
        Double(next() >> 11) * 0x1.0p-53
    }
}
