import Foundation
import Learners
import TestSupport
import Testing

/// Review days follow Anki's rule, in the learner's own time zone: a day starts at a set hour,
/// cards fall due at the start of a day, and FSRS counts the calendar days between reviews.
/// Expected dates come from Foundation's Calendar, not from the code under test.
@Suite("A learner's review days")
struct ReviewDayTests {
    static let zone = TimeZone(identifier: "Asia/Ho_Chi_Minh")!

    /// Epoch seconds of `hour`:00 local, `daysAgo` calendar days before today in `zone`.
    static func local(_ hour: Int, daysAgo: Int) -> Double {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = zone
        let today = calendar.startOfDay(for: Date())
        let day = calendar.date(byAdding: .day, value: -daysAgo, to: today)!
        return calendar.date(bySettingHour: hour, minute: 0, second: 0, of: day)!.timeIntervalSince1970
    }

    static func localParts(_ time: Double) -> DateComponents {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = zone
        return calendar.dateComponents([.year, .month, .day, .hour, .minute, .second], from: Date(timeIntervalSince1970: time))
    }

    static func calendarDays(from a: Double, to b: Double, startHour: Int) -> Int {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = zone
        func day(_ t: Double) -> Date { calendar.startOfDay(for: Date(timeIntervalSince1970: t - Double(startHour) * 3600)) }
        return calendar.dateComponents([.day], from: day(a), to: day(b)).day!
    }

    @Test("PATCH /v1/me/settings sets the zone and the hour a day starts; GET /v1/me says which rule applies; bad values are 400 and change nothing")
    func settings() async throws {
        try await withServer { s in
            let data = try await LearnerData.open(s)
            let anna = try await data.add("anna")
            let before = try await s.send("GET", "/v1/me", token: anna.token).object()
            let defaultDay = try #require(before["day"] as? [String: Any])
            #expect(defaultDay["startsAt"] as? Int == 4 && defaultDay["chosen"] as? Bool == false)
            #expect(defaultDay["timeZone"] as? String == TimeZone.current.identifier)

            let set = try await s.send("PATCH", "/v1/me/settings", token: anna.token, json: #"{"timeZone":"asia/ho_chi_minh","dayStartsAt":5}"#)
            #expect(set.status == 200, "\(set.text)")
            let day = try #require(try set.object()["day"] as? [String: Any])
            #expect(day["timeZone"] as? String == "Asia/Ho_Chi_Minh" && day["startsAt"] as? Int == 5 && day["chosen"] as? Bool == true)

            for (body, code) in [
                (#"{"timeZone":"Hanoi"}"#, "bad_time_zone"), (#"{"timeZone":"GMT+7"}"#, "bad_time_zone"), (#"{"timeZone":"EST"}"#, "bad_time_zone"),
                (#"{"dayStartsAt":24}"#, "bad_day_start"), (#"{"dayStartsAt":-1}"#, "bad_day_start"),
                (#"{"language":"vi","dayStartsAt":25}"#, "bad_day_start"), ("{}", "missing_parameter"),
            ] {
                let refused = try await s.send("PATCH", "/v1/me/settings", token: anna.token, json: body)
                #expect(refused.status == 400, "\(body): \(refused.status)")
                #expect(((try refused.object()["error"] as? [String: Any])?["code"] as? String) == code, "\(body): \(refused.text)")
            }
            let stored = try #require(try await data.store.learner(named: "anna"))
            #expect(
                stored.settings.timeZone == "Asia/Ho_Chi_Minh" && stored.settings.dayStartsAt == 5 && stored.settings.language == nil,
                "a refused change left everything as it was, the language too")
        }
    }

    @Test("a card says its word as it appears unless the learner turns it off; the choice is kept and refused values change nothing")
    func cardSound() async throws {
        try await withServer { s in
            let data = try await LearnerData.open(s)
            let anna = try await data.add("anna")
            let before = try #require(try await s.send("GET", "/v1/me", token: anna.token).object()["settings"] as? [String: Any])
            #expect(before["cardSound"] == nil, "not chosen: the web app says the word")
            let off = try await s.send("PATCH", "/v1/me/settings", token: anna.token, json: #"{"cardSound":false}"#)
            let offSettings = try off.object()["settings"] as? [String: Any]
            #expect(off.status == 200 && offSettings?["cardSound"] as? Bool == false, "\(off.text)")
            let refused = try await s.send("PATCH", "/v1/me/settings", token: anna.token, json: #"{"cardSound":"loud"}"#)
            #expect(refused.status == 400, "\(refused.status) \(refused.text)")
            #expect(try await data.store.learner(named: "anna")?.settings.cardSound == false)
            let on = try await s.send("PATCH", "/v1/me/settings", token: anna.token, json: #"{"cardSound":true}"#)
            #expect(on.status == 200)
            #expect(try await data.store.learner(named: "anna")?.settings.cardSound == true)
        }
    }

    @Test("cards answered at 9 am and at 11 pm fall due at the start of a day (4 am in the learner's zone); 11 pm then 5 am is one elapsed day")
    func dueAtTheStartOfTheLearnersDay() async throws {
        try await withServer { s in
            let data = try await LearnerData.open(s)
            let anna = try await data.add("anna")
            let items = try await data.save(["cat", "dog"], for: anna)
            #expect(try await s.send("PATCH", "/v1/me/settings", token: anna.token, json: #"{"timeZone":"Asia/Ho_Chi_Minh"}"#).status == 200)

            let morning = Self.local(9, daysAgo: 3)
            let night = Self.local(23, daysAgo: 3)
            let nextMorning = Self.local(5, daysAgo: 2)
            func rate(_ item: Int64, _ rating: String, at time: Double) async throws {
                let answer = try await s.send(
                    "POST", "/v1/me/reviews", token: anna.token,
                    json: #"{"item":\#(item),"rating":"\#(rating)","reviewedAt":\#(time)}"#)
                #expect(answer.status == 200, "\(answer.text)")
            }
            try await rate(items[0].id, "easy", at: morning)
            try await rate(items[1].id, "easy", at: night)
            for item in items {
                let card = try #require(try await data.store.card(of: item.id, learner: anna.id)).card
                let due = Self.localParts(card.due)
                #expect(due.hour == 4 && due.minute == 0 && due.second == 0, "due \(due)")
                #expect(Self.calendarDays(from: card.lastReview!, to: card.due, startHour: 4) == card.scheduledDays)
            }

            try await rate(items[1].id, "good", at: nextMorning)
            let log = try await data.store.reviews(of: anna.id, since: 0).filter { $0.itemID == items[1].id }
            #expect(log.map(\.elapsedDays) == [0, 1], "six hours, but a new day began at 4 am")
        }
    }

    @Test("with the day starting at 6, a review at 5 am still belongs to the day before")
    func laterStartHour() async throws {
        try await withServer { s in
            let data = try await LearnerData.open(s)
            let anna = try await data.add("anna")
            let items = try await data.save(["cat"], for: anna)
            #expect(try await s.send("PATCH", "/v1/me/settings", token: anna.token, json: #"{"timeZone":"Asia/Ho_Chi_Minh","dayStartsAt":6}"#).status == 200)
            let fiveAM = Self.local(5, daysAgo: 2)
            let answer = try await s.send(
                "POST", "/v1/me/reviews", token: anna.token,
                json: #"{"item":\#(items[0].id),"rating":"easy","reviewedAt":\#(fiveAM)}"#)
            #expect(answer.status == 200, "\(answer.text)")
            let card = try #require(try await data.store.card(of: items[0].id, learner: anna.id)).card
            #expect(Self.localParts(card.due).hour == 6)
            #expect(Self.calendarDays(from: fiveAM, to: card.due, startHour: 6) == card.scheduledDays)
            #expect(
                Self.calendarDays(from: fiveAM, to: card.due, startHour: 0) == card.scheduledDays - 1,
                "due one calendar date sooner than counting from 5 am's own date: it was counted from the day before")
        }
    }
}
