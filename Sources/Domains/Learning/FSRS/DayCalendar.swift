/// How review time is counted in days. Two rules really differ here: py-fsrs counts whole
/// 24-hour periods since the last review (the scheduler's rule when it is given no calendar),
/// Anki counts calendar days that start at a set hour (4 am by default) in the learner's time
/// zone. The product uses Anki's rule, so every card due "tomorrow" is there in the morning; the
/// py-fsrs parity tests use the other.
public protocol DayCalendar: Sendable {
    /// The number of the day `time` (epoch seconds) falls in; consecutive days differ by one.
    func number(of time: Double) -> Int
    /// Epoch seconds at which day `day` starts.
    func start(ofDay day: Int) -> Double
}
