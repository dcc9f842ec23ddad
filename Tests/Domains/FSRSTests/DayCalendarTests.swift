import SeededRandom
import Testing

@testable import FSRS

/// A zone seven hours east of UTC with days starting at 4 am, like a learner in Ho Chi Minh
/// City on Anki's default (the product's zones with daylight saving are tested with Learners'
/// `LocalDays`).
struct Plus7From4am: DayCalendar {
    static let shift = 7.0 * 3600 - 4 * 3600
    func number(of time: Double) -> Int { Int(((time + Self.shift) / 86_400).rounded(.down)) }
    func start(ofDay day: Int) -> Double { Double(day) * 86_400 - Self.shift }
}

@Suite struct DayCalendarTests {
    let calendar = Plus7From4am()
    let day = 20_000 // 2024-10-04 in that zone
    var dayStart: Double { calendar.start(ofDay: day) }
    var anki: Scheduler { try! Scheduler(parameters: Parameters(fuzz: false), calendar: calendar) }
    var pyFSRS: Scheduler { try! Scheduler(parameters: Parameters(fuzz: false)) }

    func easy(_ s: Scheduler, at time: Double) -> Review {
        var rng = SeededGenerator(seed: 1)
        return s.review(Card(due: time), rating: .easy, at: time, using: &rng)
    }

    @Test("cards answered at 9 am and at 11 pm with the same interval are due together, from 4 am of their day")
    func dueAtTheStartOfADay() {
        let morning = easy(anki, at: dayStart + 5 * 3600)
        let night = easy(anki, at: dayStart + 19 * 3600)
        #expect(morning.card.scheduledDays == 8 && night.card.scheduledDays == 8)
        #expect(morning.card.due == calendar.start(ofDay: day + 8))
        #expect(night.card.due == calendar.start(ofDay: day + 8))
        #expect(night.log.scheduledSeconds == calendar.start(ofDay: day + 8) - (dayStart + 19 * 3600))
        // py-fsrs's rule keeps the hour of the review: the night card would wait until 11 pm.
        let pyNight = easy(pyFSRS, at: dayStart + 19 * 3600)
        #expect(pyNight.card.due == dayStart + 19 * 3600 + 8 * 86_400)
    }

    @Test("a review at 2 am belongs to the day before: its card is due counted from that day")
    func beforeTheStartHour() {
        let twoAM = dayStart + 22 * 3600 // 2 am of the next calendar date
        #expect(calendar.number(of: twoAM) == day)
        #expect(easy(anki, at: twoAM).card.due == calendar.start(ofDay: day + 8))
        let fiveAM = dayStart + 25 * 3600
        #expect(easy(anki, at: fiveAM).card.due == calendar.start(ofDay: day + 9))
    }

    @Test("FSRS learns from calendar days: 11 pm then 5 am the next morning is one day, not the same day")
    func elapsedDaysAreCalendarDays() {
        let night = easy(anki, at: dayStart + 19 * 3600)
        var rng = SeededGenerator(seed: 2)
        let morning = anki.review(night.card, rating: .good, at: dayStart + 25 * 3600, using: &rng)
        #expect(morning.log.elapsedDays == 1)
        #expect(morning.card.memory == anki.nextMemoryState(after: night.card.memory, rating: .good, elapsedDays: 1))

        let pyNight = easy(pyFSRS, at: dayStart + 19 * 3600)
        var pyRNG = SeededGenerator(seed: 2)
        let pyMorning = pyFSRS.review(pyNight.card, rating: .good, at: dayStart + 25 * 3600, using: &pyRNG)
        #expect(pyMorning.log.elapsedDays == 0) // six hours: py-fsrs's same-day formula
        #expect(pyMorning.card.memory != morning.card.memory)
    }

    @Test("learning steps stay minutes long under either rule")
    func stepsAreNotRoundedToDays() {
        var rng = SeededGenerator(seed: 3)
        let first = anki.review(Card(due: dayStart + 19 * 3600), rating: .good, at: dayStart + 19 * 3600, using: &rng)
        #expect(first.card.phase == .learning && first.card.due == dayStart + 19 * 3600 + 600)
    }
}
