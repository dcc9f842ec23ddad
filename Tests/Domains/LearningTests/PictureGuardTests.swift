import Classes
import Testing

/// The rules that protect a child's three pictures, on their own: when a failure locks, how a
/// child's own sign-in forgives their mistypes, and how few guesses anyone gets in a month.
@Suite("PictureGuard: free mistypes, locks that double, forgiveness by the child's own sign-in, a class's budget")
struct PictureGuardTests {
    let start = 1_000_000.0

    func failing(_ times: Int, from state: PictureGuard.State = PictureGuard.State(), children: Int = 25, at now: Double) -> PictureGuard.State {
        var state = state
        var classState = PictureGuard.ClassState()
        for _ in 0..<times { (state, classState) = PictureGuard.failed(state, classState: classState, children: children, at: now) }
        return state
    }

    @Test("two mistypes lock nothing; the third failure locks for a minute, and each after it doubles the lock")
    func locksDouble() {
        #expect(failing(2, at: start).locked(at: start) == nil)
        #expect(failing(3, at: start).locked(at: start) == start + 60)
        #expect(failing(4, at: start).locked(at: start) == start + 120)
        #expect(failing(8, at: start).locked(at: start) == start + 60 * 32)
        #expect(failing(60, at: start).locked(at: start) == start + PictureGuard.longestLock, "no lock is longer than 30 days")
        #expect(failing(3, at: start).locked(at: start + 60) == nil, "a lock ends by itself")
    }

    @Test("a sign-in forgives the mistypes of the ten minutes before it, three at most; older failures stay")
    func forgiveness() {
        var state = failing(1, at: start)
        state = failing(2, from: state, at: start + 3_600)
        var classState = PictureGuard.ClassState(times: state.times)
        (state, classState) = PictureGuard.succeeded(state, classState: classState, at: start + 3_650)
        #expect(state.failures == 1 && state.times == [start], "the two just before are forgiven, the one an hour before is not")
        #expect(classState.times == [start])
        #expect(state.lockedUntil == nil)
        let many = failing(6, at: start)
        let (after, _) = PictureGuard.succeeded(many, classState: PictureGuard.ClassState(), at: start + 300)
        #expect(after.failures == 3, "at most three are forgiven")
    }

    @Test("a class over its day's budget of unforgiven failures locks each failing name at once; names that do not fail are never locked")
    func classBudget() {
        let children = 25
        var classState = PictureGuard.ClassState()
        var states = Array(repeating: PictureGuard.State(), count: children)
        // Every child mistypes twice at once, as a class signing in does: nobody is locked.
        for round in 0..<2 {
            for i in 0..<children {
                (states[i], classState) = PictureGuard.failed(states[i], classState: classState, children: children, at: start + Double(round))
            }
        }
        #expect(states.allSatisfy { $0.locked(at: start + 2) == nil })
        #expect(classState.unforgiven(since: start - 1) == 50 && PictureGuard.classBudget(children: children) == 60)
        // A guesser going over the budget: each name it fails on is locked at its first failure.
        for _ in 0..<11 {
            var fresh = PictureGuard.State()
            (fresh, classState) = PictureGuard.failed(fresh, classState: classState, children: children, at: start + 3)
            if classState.unforgiven(since: start - 1) > 60 { #expect(fresh.locked(at: start + 3) != nil) }
        }
        // Thirty days later the budget is whole again.
        var later = PictureGuard.State()
        let month = start + PictureGuard.classWindow + 10
        (later, _) = PictureGuard.failed(later, classState: classState, children: children, at: month)
        #expect(later.locked(at: month) == nil)
    }

    @Test(
        "someone who guesses at one child of a class of 30 whenever a lock ends gets 18 guesses of 504 in a month and 29 in a year, from any number of addresses"
    )
    func guessesOverTime() {
        let month = PictureGuard.guesses(within: 30 * 86_400)
        let year = PictureGuard.guesses(within: 365 * 86_400)
        #expect(month == 18)
        #expect(year == 29)
        // Half of the 504 sequences, the average a guesser needs, takes far longer than a year.
        #expect(PictureGuard.guesses(within: 365 * 86_400) < 252 / 4)
    }

    @Test("a guesser who knows all 30 names of a class gets 108 guesses on the first day, 113 in a month and 735 in a year, over every child together")
    func guessesOverAClass() {
        #expect(PictureGuard.guesses(within: 86_400, targets: 30) == 108)
        #expect(PictureGuard.guesses(within: 30 * 86_400, targets: 30) == 113)
        #expect(PictureGuard.guesses(within: 365 * 86_400, targets: 30) == 735)
    }
}
