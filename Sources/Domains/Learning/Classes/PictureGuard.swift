/// What protects a child's three pictures (504 sequences): every check of them, whatever route
/// asks, goes through these rules, on every engine. They count the failures of one sign-in
/// identity (a child of a class, or a class code and first name that name nobody, answered
/// alike) and of its class, and decide when an identity is locked. Addresses do not come into
/// it: an attacker with any number of them meets the same locks.
///
/// A child mistypes; an attacker guesses. What tells them apart is that a child gets in soon
/// after: a sign-in forgives the failures of the minutes before it (a few at most), and the
/// failures nobody forgave add up until the adult lets the child in again.
public enum PictureGuard {
    /// Failures of an identity that lock nothing: a child may mistype twice and get in on the third try.
    public static let freeFailures = 2
    /// The first lock, in seconds; every further failure doubles it.
    public static let firstLock = 60.0
    /// No lock is longer (30 days): the adult can always end one sooner.
    public static let longestLock = 30 * 86_400.0
    /// A sign-in forgives the failures of this many seconds before it…
    public static let forgiveWithin = 600.0
    /// …but no more than this many: a guesser beside the child cannot hide many tries in them.
    public static let forgivenAtMost = 3
    /// Failure times an identity keeps for the adult's page (a week's, at most this many).
    public static let keptFailures = 200
    public static let week = 7 * 86_400.0
    public static let day = 86_400.0

    /// Failures in a class within `classWindow` that nobody forgave, beyond which every failure
    /// of the class locks its identity at once: many children mistyping at the same moment (a
    /// class signing in) stay under it, and their own sign-ins forgive them; a guesser who
    /// spreads guesses over every child of the class does not.
    public static func classBudget(children: Int) -> Int { 2 * children + 10 }
    public static let classWindow = 30 * day

    /// One identity's record. Kept for children in the database (every instance and restart
    /// sees it); for names nobody has, in memory, so that they lock alike.
    public struct State: Sendable, Codable, Equatable {
        /// Failures nobody forgave since the adult last let the child in.
        public var failures: Int
        /// Locked until then (seconds since 1970).
        public var lockedUntil: Double?
        /// When the failures of the last week happened, oldest first; forgiven ones removed.
        public var times: [Double]

        public init(failures: Int = 0, lockedUntil: Double? = nil, times: [Double] = []) {
            self.failures = failures
            self.lockedUntil = lockedUntil
            self.times = times
        }

        public func locked(at now: Double) -> Double? {
            guard let until = lockedUntil, until > now else { return nil }
            return until
        }

        public func failures(since time: Double) -> Int { times.count { $0 >= time } }
    }

    /// A class's failures of the last `classWindow` that nobody forgave.
    public struct ClassState: Sendable, Codable, Equatable {
        public var times: [Double]
        public init(times: [Double] = []) { self.times = times }

        public func unforgiven(since time: Double) -> Int { times.count { $0 >= time } }
    }

    /// How long a failure locks for: nothing while the identity is within its free failures
    /// and its class within its budget; else the first lock, doubled for each failure beyond
    /// (the identity's own or, when the class is over its budget, the class's).
    public static func lock(failures: Int, classExcess: Int) -> Double? {
        let beyond = classExcess > 0 ? max(failures - 1, 0) + classExcess - 1 : failures - freeFailures - 1
        guard beyond >= 0 else { return nil }
        // 2^beyond minutes, without overflowing for a very long attack.
        return min(longestLock, firstLock * Double(1 << min(beyond, 40)))
    }

    /// The records after a failure at `now`.
    public static func failed(_ state: State, classState: ClassState, children: Int, at now: Double) -> (State, ClassState) {
        var state = state
        var classState = classState
        state.failures += 1
        state.times = Array((state.times.filter { $0 >= now - week } + [now]).suffix(keptFailures))
        classState.times = Array(
            (classState.times.filter { $0 >= now - classWindow } + [now]).suffix(max(keptFailures, classBudget(children: children) * 4)))
        let excess = classState.unforgiven(since: now - classWindow) - classBudget(children: children)
        if let seconds = lock(failures: state.failures, classExcess: excess) { state.lockedUntil = now + seconds }
        return (state, classState)
    }

    /// The records after the child got in at `now`: the last few failures of the minutes
    /// before are forgiven, the lock (if it had ended) forgotten.
    public static func succeeded(_ state: State, classState: ClassState, at now: Double) -> (State, ClassState) {
        var state = state
        var classState = classState
        let recent = state.times.filter { $0 >= now - forgiveWithin }.suffix(forgivenAtMost)
        for time in recent {
            if let i = state.times.lastIndex(of: time) { state.times.remove(at: i) }
            if let i = classState.times.lastIndex(of: time) { classState.times.remove(at: i) }
        }
        state.failures = max(0, state.failures - recent.count)
        state.lockedUntil = nil
        return (state, classState)
    }

    /// How many guesses a class of `classSize` allows within `seconds` at `targets` of its
    /// children, for someone who knows their names and, from any number of addresses, guesses
    /// at whichever one's lock ends first, never forgiven (the figures docs/classes.md gives).
    public static func guesses(within seconds: Double, targets: Int = 1, classSize: Int = 30) -> Int {
        let children = classSize
        var states = Array(repeating: State(), count: max(1, min(targets, classSize)))
        var classState = ClassState()
        var now = 0.0
        var count = 0
        while true {
            let next = states.indices.min { (states[$0].lockedUntil ?? 0) < (states[$1].lockedUntil ?? 0) }!
            now = max(now, states[next].lockedUntil ?? 0)
            guard now <= seconds else { return count }
            count += 1
            (states[next], classState) = failed(states[next], classState: classState, children: children, at: now)
        }
    }
}
