import Foundation
import Testing

@testable import Learners

/// `LocalDays` (Reviewer.swift): Anki's days in a real time zone, daylight saving included.
@Suite("A learner's local days")
struct LocalDaysTests {
    static func time(_ text: String, in zone: String) -> Double {
        let parser = DateFormatter()
        parser.locale = Locale(identifier: "en_US_POSIX")
        parser.timeZone = TimeZone(identifier: zone)
        parser.dateFormat = "yyyy-MM-dd HH:mm"
        return parser.date(from: text)!.timeIntervalSince1970
    }

    @Test("a day runs from 4 am to 4 am on the learner's clock, in summer and in winter")
    func fourToFour() {
        let london = LocalDays(timeZone: TimeZone(identifier: "Europe/London")!)
        for date in ["2026-01-15", "2026-07-15"] {
            let start = Self.time("\(date) 04:00", in: "Europe/London")
            #expect(london.start(of: start) == start)
            #expect(london.start(of: Self.time("\(date) 23:59", in: "Europe/London")) == start)
            #expect(london.number(of: Self.time("\(date) 03:59", in: "Europe/London")) == london.number(of: start) - 1)
        }
    }

    @Test("across a change of clocks every day still starts at 4 am, and the day numbers stay consecutive")
    func daylightSaving() {
        let london = LocalDays(timeZone: TimeZone(identifier: "Europe/London")!)
        // Clocks went forward on 29 March 2026 and back on 25 October 2026 (at 1-2 am).
        for (before, after, hours) in [("2026-03-28", "2026-03-29", 23.0), ("2026-10-24", "2026-10-25", 25.0)] {
            let first = london.number(of: Self.time("\(before) 12:00", in: "Europe/London"))
            #expect(london.start(ofDay: first) == Self.time("\(before) 04:00", in: "Europe/London"))
            #expect(london.start(ofDay: first + 1) == Self.time("\(after) 04:00", in: "Europe/London"))
            #expect(london.start(ofDay: first + 1) - london.start(ofDay: first) == hours * 3600)
        }
    }

    @Test(
        "every moment falls in the day whose start is at or before it and whose end is after it",
        arguments: ["Asia/Ho_Chi_Minh", "America/New_York", "Australia/Lord_Howe", "UTC"])
    func startAndNumberAgree(_ zone: String) {
        let days = LocalDays(timeZone: TimeZone(identifier: zone)!, startHour: 4)
        var t = 1_767_225_600.0 // 2026-01-01 UTC
        while t < 1_798_761_600 { // a year, every 3 h 7 min
            let n = days.number(of: t)
            #expect(days.start(ofDay: n) <= t && t < days.start(ofDay: n + 1), "\(zone) at \(t)")
            t += 11_220
        }
    }

    @Test("the start hour is clamped to a clock's hours")
    func startHours() {
        #expect(LocalDays(timeZone: TimeZone(identifier: "UTC")!, startHour: 30).startHour == 23)
        #expect(LocalDays(timeZone: TimeZone(identifier: "UTC")!, startHour: -2).startHour == 0)
    }
}
