import Foundation
import Speech

/// How likely a recogniser's lattice is to be `phones` said, summed over every way of placing
/// them in time (the CTC forward algorithm), as a natural logarithm. Phones the recogniser does
/// not know are left out.
public enum CTCScore {
    public static func logLikelihood(_ lattice: PhoneLattice, _ phones: [String], index: [String: Int]) -> Double {
        let ids = phones.compactMap { index[$0] }
        guard lattice.frames > 0 else { return ids.isEmpty ? 0 : -.infinity }
        // The extended sequence: a blank before, between and after the phones.
        var extended = [lattice.blank]
        for id in ids { extended += [id, lattice.blank] }
        let count = extended.count
        var alpha = [Double](repeating: -.infinity, count: count)
        var next = alpha
        alpha[0] = Double(lattice.logProbability(frame: 0, phone: extended[0]))
        if count > 1 { alpha[1] = Double(lattice.logProbability(frame: 0, phone: extended[1])) }
        for frame in 1..<max(1, lattice.frames) {
            for s in 0..<count {
                var total = alpha[s]
                if s >= 1 { total = add(total, alpha[s - 1]) }
                // Skipping a blank is allowed between two different phones only.
                if s >= 2, extended[s] != lattice.blank, extended[s] != extended[s - 2] { total = add(total, alpha[s - 2]) }
                next[s] = total == -.infinity ? total : total + Double(lattice.logProbability(frame: frame, phone: extended[s]))
            }
            swap(&alpha, &next)
        }
        return count > 1 ? add(alpha[count - 1], alpha[count - 2]) : alpha[0]
    }

    /// log(e^a + e^b), without overflow.
    static func add(_ a: Double, _ b: Double) -> Double {
        if a == -.infinity { return b }
        if b == -.infinity { return a }
        let high = max(a, b)
        return high + Foundation.log(1 + Foundation.exp(min(a, b) - high))
    }
}
