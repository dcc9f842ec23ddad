#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#elseif canImport(ucrt)
    import ucrt
#endif

/// The FSRS-6 memory model: pure functions of the weights, no scheduling policy.
///
/// Follows fsrs-rs `model.rs` (the code Anki runs), in Double rather than Float.
struct Model: Sendable, Equatable {
    static let minStability = 0.001
    static let maxStability = 36500.0
    static let minDifficulty = 1.0
    static let maxDifficulty = 10.0

    let w: [Double]
    /// Exponent of the power forgetting curve (−w20).
    let decay: Double
    /// Chosen so that R(S, S) = 0.9 for any decay.
    let factor: Double

    init(weights: [Double]) {
        precondition(weights.count == 21, "validated by Parameters")
        w = weights
        decay = -weights[20]
        factor = pow(0.9, 1 / decay) - 1
    }

    func retrievability(elapsedDays t: Double, stability s: Double) -> Double {
        pow(1 + factor * max(t, 0) / s, decay)
    }

    /// Unrounded, unclamped interval in days at which R falls to `retention`.
    func interval(stability s: Double, retention r: Double) -> Double {
        s / factor * (pow(r, 1 / decay) - 1)
    }

    func initialStability(_ g: Rating) -> Double {
        clampStability(w[g.rawValue - 1])
    }

    /// Unclamped, because mean reversion targets the raw Easy value (which is below 1 for the
    /// default weights); clamping it would change every difficulty update.
    func rawInitialDifficulty(_ g: Rating) -> Double {
        w[4] - exp(w[5] * Double(g.rawValue - 1)) + 1
    }

    func initialState(_ g: Rating) -> MemoryState {
        MemoryState(stability: initialStability(g), difficulty: clampDifficulty(rawInitialDifficulty(g)))
    }

    func nextDifficulty(_ d: Double, _ g: Rating) -> Double {
        let delta = -w[6] * Double(g.rawValue - 3)
        // Linear damping: steps shrink as D approaches 10 so difficulty cannot run away.
        let damped = d + delta * (10 - d) / 9
        let reverted = w[7] * rawInitialDifficulty(.easy) + (1 - w[7]) * damped
        return clampDifficulty(reverted)
    }

    func stabilityAfterRecall(s: Double, d: Double, r: Double, _ g: Rating) -> Double {
        let hardPenalty = g == .hard ? w[15] : 1
        let easyBonus = g == .easy ? w[16] : 1
        return s
            * (1 + exp(w[8]) * (11 - d) * pow(s, -w[9]) * (exp(w[10] * (1 - r)) - 1)
                * hardPenalty * easyBonus)
    }

    func stabilityAfterLapse(s: Double, d: Double, r: Double) -> Double {
        let longTerm = w[11] * pow(d, -w[12]) * (pow(s + 1, w[13]) - 1) * exp(w[14] * (1 - r))
        // A lapse must never leave the card more stable than a same-day Again would.
        let shortTermCeiling = s / exp(w[17] * w[18])
        return min(longTerm, shortTermCeiling)
    }

    func stabilityShortTerm(s: Double, _ g: Rating) -> Double {
        var increase = exp(w[17] * (Double(g.rawValue) - 3 + w[18])) * pow(s, -w[19])
        // A passed same-day review must not lower stability (fsrs-rs, py-fsrs, ts-fsrs).
        if g >= .hard { increase = max(increase, 1) }
        return s * increase
    }

    /// One review. `state == nil` means the card's first review. `elapsedDays < 1` is a
    /// same-day review: Anki hands fsrs-rs whole days and fsrs-rs switches to the short-term
    /// formula at exactly 0, so for whole-day input this is the same rule.
    func next(_ state: MemoryState?, rating g: Rating, elapsedDays t: Double) -> MemoryState {
        guard let state else { return initialState(g) }
        // Clamp the input like fsrs-rs so a hand-edited or decoded state cannot produce NaN.
        let s = clampStability(state.stability)
        let d = clampDifficulty(state.difficulty)
        let newS: Double
        if !(t >= 1) { // also catches NaN
            newS = stabilityShortTerm(s: s, g)
        } else {
            let r = retrievability(elapsedDays: t, stability: s)
            newS =
                g == .again
                ? stabilityAfterLapse(s: s, d: d, r: r)
                : stabilityAfterRecall(s: s, d: d, r: r, g)
        }
        return MemoryState(stability: clampStability(newS), difficulty: nextDifficulty(d, g))
    }

    private func clampStability(_ s: Double) -> Double {
        // NaN would otherwise survive min/max and poison every later review.
        if s.isNaN { return Model.minStability }
        return min(max(s, Model.minStability), Model.maxStability)
    }

    private func clampDifficulty(_ d: Double) -> Double {
        if d.isNaN { return Model.maxDifficulty }
        return min(max(d, Model.minDifficulty), Model.maxDifficulty)
    }
}
