import Foundation
import Speech
import Testing

@testable import Pronunciation

/// The likelihood of a phone sequence summed over every way of placing it in time.
struct CTCScoreTests {
    /// A lattice over phones a, b and blank (index 2) where each frame is sure of one symbol.
    func lattice(_ frames: [Int], sureness: Float = 0.98) -> PhoneLattice {
        let other = log((1 - sureness) / 2)
        var values: [Float] = []
        for symbol in frames { for phone in 0..<3 { values.append(phone == symbol ? log(sureness) : other) } }
        return PhoneLattice(phones: ["a", "b", "<blank>"], blank: 2, frames: frames.count, logProbabilities: values)
    }
    let index = ["a": 0, "b": 1]

    @Test("the sequence the frames say is far likelier than one with a phone more, fewer or another")
    func theSaidSequenceWins() {
        let said = lattice([2, 0, 0, 2, 1, 2])
        let right = CTCScore.logLikelihood(said, ["a", "b"], index: index)
        #expect(right > -1)
        for wrong in [["a"], ["b", "a"], ["a", "b", "a"], ["a", "a", "b"], ["b"]] {
            #expect(CTCScore.logLikelihood(said, wrong, index: index) < right - 3, "\(wrong)")
        }
    }

    @Test("a repeated phone needs a blank between its two: 'a a' is not 'a' held long")
    func repeatsNeedABlank() {
        let held = lattice([0, 0, 0])
        let twice = lattice([0, 2, 0])
        #expect(CTCScore.logLikelihood(held, ["a"], index: index) > CTCScore.logLikelihood(held, ["a", "a"], index: index) + 3)
        #expect(CTCScore.logLikelihood(twice, ["a", "a"], index: index) > CTCScore.logLikelihood(twice, ["a"], index: index) + 3)
    }

    @Test("the best path is what the frames say, repeats and blanks removed")
    func bestPath() {
        #expect(lattice([2, 0, 0, 2, 1, 1, 2, 0]).bestPath.phones == ["a", "b", "a"])
        #expect(lattice([2, 2, 2]).bestPath.phones.isEmpty)
    }
}
