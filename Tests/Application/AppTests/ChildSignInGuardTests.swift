import App
import AppCore
import Classes
import Foundation
import Learners
import TestSupport
import Testing

/// What protects a child's pictures, through the application value on user.sqlite and on a
/// real PostgreSQL, with a clock the test moves: the guard locks a name whoever guesses, a
/// child's own sign-in forgives their mistypes, the adult sees and ends locks, and a child's
/// sessions end with their place in a class.
@Suite("A child's pictures: locks per child, seen and ended by the adult; sessions that end with the class")
struct ChildSignInGuardTests {
    static func wrong(for child: NewChild) -> [Int] { ClassRules.everyPictureSequence.first { $0 != child.pictures }! }

    @Test(
        "all 504 sequences, the right one last: three are checked, the rest meet a lock; a guesser who waits out every lock gets 18 checks in 30 days, never the right one",
        arguments: StorageEngine.allCases)
    func everySequenceMeetsTheLock(_ engine: StorageEngine) async throws {
        let clock = TestClock()
        try await ClassServiceTests.withApp(engine, clock: clock) { app in
            let classes = try await app.classes()
            let (teacher, _) = try await classes.signUp(name: "Ms Lan", password: "correct horse battery")
            let year3 = try await classes.createClass(named: "Year 3", by: teacher)
            let an = try await classes.addChild(named: "An", to: year3.code, by: teacher)
            let order = ClassRules.everyPictureSequence.filter { $0 != an.pictures } + [an.pictures]
            #expect(order.count == 504)
            var outcomes: [String: Int] = [:]
            for pictures in order {
                let answer = try await classes.signInChild(code: year3.code, firstName: "An", pictures: pictures)
                outcomes[answer.kind, default: 0] += 1
            }
            #expect(outcomes == ["refused": 3, "locked": 501], "\(outcomes)")
            // The same for a name nobody has: nothing tells the two apart.
            var nobody: [String: Int] = [:]
            for pictures in order {
                let answer = try await classes.signInChild(code: year3.code, firstName: "Anselmo", pictures: pictures)
                nobody[answer.kind, default: 0] += 1
            }
            #expect(nobody == outcomes)

            // Someone who waits for the end of each lock: 30 days of guessing at a child of a class of 30.
            let year4 = try await classes.createClass(named: "Year 4", by: teacher)
            let letters = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZ")
            let roster = (0..<29).map { "Child \(letters[$0 / 26])\(letters[$0 % 26])" }.joined(separator: "\n")
            let other = try await classes.importChildren(csv: "Bảo\n" + roster, to: year4.code, by: teacher)[0]
            let guesses = ClassRules.everyPictureSequence.filter { $0 != other.pictures }
            let end = clock.now + 30 * 86_400
            var checked = 0
            var next = 0
            while clock.now < end, next < guesses.count {
                let answer = try await classes.signInChild(code: year4.code, firstName: "Bảo", pictures: guesses[next])
                #expect(answer.kind != "signed in", "a wrong sequence signed in")
                if let until = answer.lockedUntil {
                    clock.advance(by: until - clock.now)
                } else {
                    checked += 1
                    next += 1
                }
            }
            #expect(checked == PictureGuard.guesses(within: 30 * 86_400) && checked == 18)
            _ = try await classes.signInChild(code: year4.code, firstName: "Bảo", pictures: guesses[next])
            // The adult sees it, and the child, once the adult ends the lock, gets in with her pictures.
            let details = try await classes.details(year4.code, by: teacher)
            let bao = try #require(details.children.first { $0.id == other.id }?.signIn)
            #expect(bao.failedThisWeek > 0 && bao.lockedUntil != nil)
            #expect(details.failedSignInsToday >= 1)
            let whileLocked = try await classes.signInChild(code: year4.code, firstName: "Bảo", pictures: other.pictures)
            #expect(whileLocked.kind == "locked", "a locked child got in")
            _ = try await classes.unlock(other.id, in: year4.code, by: teacher)
            #expect(try await classes.signInChild(code: year4.code, firstName: "Bảo", pictures: other.pictures).signedIn != nil)
        }
    }

    @Test(
        "a class of 25 signing in at once, each child mistyping twice, all get in while a classmate is locked; their own sign-in forgives their mistypes",
        arguments: StorageEngine.allCases)
    func aClassSigningIn(_ engine: StorageEngine) async throws {
        let clock = TestClock()
        try await ClassServiceTests.withApp(engine, clock: clock) { app in
            let classes = try await app.classes()
            let (teacher, _) = try await classes.signUp(name: "Ms Lan", password: "correct horse battery")
            let year3 = try await classes.createClass(named: "Year 3", by: teacher)
            var children: [NewChild] = []
            for i in 0..<26 { children.append(try await classes.addChild(named: "Child \(Character(UnicodeScalar(65 + i)!))", to: year3.code, by: teacher)) }
            let locked = children.removeLast()
            for pictures in ClassRules.everyPictureSequence.filter({ $0 != locked.pictures }).prefix(5) {
                _ = try await classes.signInChild(code: year3.code, firstName: locked.firstName, pictures: pictures)
            }
            let results = try await withThrowingTaskGroup(of: Bool.self) { group in
                for child in children {
                    group.addTask {
                        for _ in 0..<2 { _ = try await classes.signInChild(code: year3.code, firstName: child.firstName, pictures: Self.wrong(for: child)) }
                        return try await classes.signInChild(code: year3.code, firstName: child.firstName, pictures: child.pictures).signedIn != nil
                    }
                }
                return try await group.reduce(into: [Bool]()) { $0.append($1) }
            }
            #expect(results.count == 25 && results.allSatisfy { $0 }, "\(results.filter { $0 }.count) of 25 signed in")
            let classmate = try await classes.signInChild(code: year3.code, firstName: locked.firstName, pictures: locked.pictures)
            #expect(classmate.kind == "locked", "the classmate who was guessed at is not locked")
            let details = try await classes.details(year3.code, by: teacher)
            #expect(details.children.filter { $0.signIn?.lockedUntil != nil }.map(\.firstName) == [locked.firstName])
            #expect(
                details.children.filter { $0.id != locked.id }.allSatisfy { $0.signIn?.failedToday == 0 }, "each child's own sign-in forgave their mistypes")
        }
    }

    @Test(
        "taking a child out, deleting the class or new pictures end the child's sessions; a child taken out can be added again under the same name; no message names an internal name",
        arguments: StorageEngine.allCases)
    func sessionsEndWithTheClass(_ engine: StorageEngine) async throws {
        try await ClassServiceTests.withApp(engine) { app in
            let classes = try await app.classes()
            let (teacher, _) = try await classes.signUp(name: "Ms Lan", password: "correct horse battery")
            let year3 = try await classes.createClass(named: "Year 3", by: teacher)
            let an = try await classes.addChild(named: "Anselmo", to: year3.code, by: teacher)
            func session(_ child: NewChild, _ code: String) async throws -> String {
                try #require(try await classes.signInChild(code: code, firstName: child.firstName, pictures: child.pictures).signedIn).session
            }
            let first = try await session(an, year3.code)
            try await classes.removeChild(an.id, from: year3.code, by: teacher)
            #expect(try await app.learning().learner(session: first) == nil, "taken out: the session ends")
            let again = try await classes.addChild(named: "Anselmo", to: year3.code, by: teacher)
            #expect(again.id != an.id)
            let second = try await session(again, year3.code)
            let reset = try await classes.resetPictures(of: again.id, in: year3.code, by: teacher)
            #expect(try await app.learning().learner(session: second) == nil, "new pictures: the session ends")
            let third = try await session(reset, year3.code)
            try await classes.deleteClass(year3.code, by: teacher)
            #expect(try await app.learning().learner(session: third) == nil, "class deleted: the session ends")
            // The learner names of children are their own kind, never shown.
            let learner = try #require(try await app.learning().store.learner(id: again.id))
            #expect(learner.name.hasPrefix(LearnerCoding.childNamePrefix))
            #expect(try await classes.displayName(of: learner) == "Anselmo")
        }
    }

    @Test(
        "an adult's sign-up never meets a child's name: First.CODE is refused alike whether a child of that name is in the class or not, and a child's own kind of name cannot be taken",
        arguments: StorageEngine.allCases)
    func namesInTheirOwnSpaces(_ engine: StorageEngine) async throws {
        try await ClassServiceTests.withApp(engine) { app in
            let classes = try await app.classes()
            let (teacher, _) = try await classes.signUp(name: "Ms Lan", password: "correct horse battery")
            let year3 = try await classes.createClass(named: "Year 3", by: teacher)
            let lan = try await classes.addChild(named: "Lan", to: year3.code, by: teacher)
            let child = try #require(try await app.learning().store.learner(id: lan.id))
            var answers: [String] = []
            for name in ["Lan.\(year3.code)", "Hoa.\(year3.code)", child.name, "#" + String(repeating: "a", count: 16)] {
                do {
                    _ = try await classes.signUp(name: name, password: "correct horse battery")
                    answers.append("signed up")
                } catch {
                    let failure = FailureClassifier.classify(error)
                    answers.append(failure.code.rawValue)
                    #expect(!failure.message.contains(child.name))
                }
            }
            #expect(answers == ["bad_name", "bad_name", "bad_name", "bad_name"])
            // The teacher can still add a child of any first name.
            _ = try await classes.addChild(named: "Hoa", to: year3.code, by: teacher)
        }
    }
}
