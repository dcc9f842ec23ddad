import Foundation
import Synchronization

/// A wall clock the test moves itself: limits, windows and locks read it instead of the
/// system's, so a test of them holds however busy the machine is.
public final class TestClock: Sendable {
    private let seconds: Mutex<Double>

    /// Starts at a fixed day (2026-12-01 08:00 UTC) unless told otherwise.
    public init(_ start: Double = 1_795_939_200 + 8 * 3_600) { seconds = Mutex(start) }

    public var now: Double { seconds.withLock { $0 } }

    /// For a `WallClock`: `WallClock(clock.read)`.
    public var read: @Sendable () -> Double { { [self] in now } }

    public func advance(by interval: Double) { seconds.withLock { $0 += interval } }
}
