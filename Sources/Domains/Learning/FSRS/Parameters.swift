/// Scheduler settings. All times are in seconds, intervals in days.
///
/// The type is plain data (Codable) so it can be stored per user or per deck; call
/// ``validate()`` (or construct a ``Scheduler``, which validates) before trusting a decoded value.
public struct Parameters: Sendable, Codable, Equatable, Hashable {
    /// FSRS-6 default weights w0…w20 (fsrs-rs `DEFAULT_PARAMETERS`, py-fsrs, Anki).
    public static let defaultWeights: [Double] = [
        0.212, 1.2931, 2.3065, 8.2956, 6.4133, 0.8334, 3.0194, 0.001, 1.8722, 0.1666,
        0.796, 1.4835, 0.0614, 0.2629, 1.6483, 0.6014, 1.8729, 0.5425, 0.0912, 0.0658,
        0.1542,
    ]

    /// Bounds a trained weight set may take. Taken from py-fsrs's validation bounds so a weight
    /// set exported by the official optimizer is always accepted, while garbage (e.g. a decay
    /// of 0, which would divide by zero) is refused.
    public static let weightBounds: [ClosedRange<Double>] = [
        0.001...100, 0.001...100, 0.001...100, 0.001...100,
        1...10, 0.001...4, 0.001...4, 0.001...0.75,
        0...4.5, 0...0.8, 0.001...3.5, 0.001...5,
        0.001...0.25, 0.001...0.9, 0...4, 0...1,
        1...6, 0...2, 0...2, 0...0.8,
        0.1...0.8,
    ]

    /// The range offered to users. Outside it FSRS either schedules absurdly long intervals
    /// (low retention) or an unbounded workload (retention near 1).
    public static let desiredRetentionRange: ClosedRange<Double> = 0.7...0.99

    /// 21 FSRS-6 weights.
    public var weights: [Double]
    /// Target probability of recall when a review card falls due.
    public var desiredRetention: Double
    /// Delays in seconds between the steps a new card walks before graduating.
    public var learningSteps: [Double]
    /// Delays in seconds between the steps a lapsed card walks before returning to review.
    public var relearningSteps: [Double]
    /// Upper bound for a review interval, in days.
    public var maximumInterval: Int
    /// Spread review intervals of 3 days or more over a small range so cards learned together
    /// do not stay clumped together forever.
    public var fuzz: Bool

    public init(
        weights: [Double] = Parameters.defaultWeights,
        desiredRetention: Double = 0.9,
        learningSteps: [Double] = [60, 600],
        relearningSteps: [Double] = [600],
        maximumInterval: Int = 36500,
        fuzz: Bool = true
    ) {
        self.weights = weights
        self.desiredRetention = desiredRetention
        self.learningSteps = learningSteps
        self.relearningSteps = relearningSteps
        self.maximumInterval = maximumInterval
        self.fuzz = fuzz
    }

    /// Throws the first problem found.
    public func validate() throws(ParameterError) {
        guard weights.count == 21 else { throw .wrongWeightCount(weights.count) }
        for (index, (weight, bounds)) in zip(weights, Parameters.weightBounds).enumerated() {
            guard weight.isFinite, bounds.contains(weight) else {
                throw .weightOutOfBounds(index: index, value: weight, bounds: bounds)
            }
        }
        guard desiredRetention.isFinite, Parameters.desiredRetentionRange.contains(desiredRetention)
        else { throw .desiredRetentionOutOfRange(desiredRetention) }
        for step in learningSteps where !(step.isFinite && step > 0) {
            throw .invalidLearningStep(step)
        }
        for step in relearningSteps where !(step.isFinite && step > 0) {
            throw .invalidRelearningStep(step)
        }
        guard maximumInterval >= 1 else { throw .invalidMaximumInterval(maximumInterval) }
    }
}

/// Why a ``Parameters`` value was refused.
public enum ParameterError: Error, Sendable, Equatable, CustomStringConvertible {
    case wrongWeightCount(Int)
    case weightOutOfBounds(index: Int, value: Double, bounds: ClosedRange<Double>)
    case desiredRetentionOutOfRange(Double)
    case invalidLearningStep(Double)
    case invalidRelearningStep(Double)
    case invalidMaximumInterval(Int)

    public var description: String {
        switch self {
        case .wrongWeightCount(let count):
            "FSRS-6 needs 21 weights, got \(count)"
        case .weightOutOfBounds(let index, let value, let bounds):
            "weight w\(index) = \(value) is outside \(bounds.lowerBound)…\(bounds.upperBound)"
        case .desiredRetentionOutOfRange(let value):
            "desired retention \(value) is outside \(Parameters.desiredRetentionRange.lowerBound)…\(Parameters.desiredRetentionRange.upperBound)"
        case .invalidLearningStep(let value):
            "learning step \(value) s is not a positive number of seconds"
        case .invalidRelearningStep(let value):
            "relearning step \(value) s is not a positive number of seconds"
        case .invalidMaximumInterval(let value):
            "maximum interval \(value) must be at least 1 day"
        }
    }
}
