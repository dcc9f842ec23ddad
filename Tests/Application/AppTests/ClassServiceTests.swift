import App
import AppCore
import Catalog
import Classes
import Foundation
import Learners
import TestSupport
import Testing

/// Classes through the application value, on user.sqlite and on a real PostgreSQL: the same
/// service, the same answers, and every adult and child confined to what is theirs.
@Suite("Classes on user.sqlite and on PostgreSQL: adults own classes, children sign in with pictures, assignments reach libraries, progress")
struct ClassServiceTests {
    static func withApp(_ engine: StorageEngine, clock: TestClock? = nil, _ body: (VocabApp) async throws -> Void) async throws {
        let box = try await AppSandbox(mandarin: false, clock: clock)
        defer { box.dir.remove() }
        switch engine {
        case .sqlite:
            try await body(box.app)
        case .postgres:
            let url = try TestPostgres.shared().createDatabase("classes")
            let app = try box.app(on: .postgres(url: url, origin: "test"))
            // A whole test run shares one PostgreSQL server: its first connection may wait.
            try await app.run(reachableWithin: .seconds(60)) { app in
                let (catalog, _) = try await app.catalogFiles()
                _ = try await app.postgres!.push(catalogFrom: catalog)
                try await body(app)
            }
        }
    }

    static func refused<T>(_ code: FailureCode, _ body: () async throws -> T) async -> Bool {
        do {
            _ = try await body()
            return false
        } catch { return FailureClassifier.classify(error).code == code }
    }

    @Test(
        "an adult makes a class, adds children (one by one and from a roster), assigns words; each child signs in with their pictures and finds the words in their library",
        arguments: StorageEngine.allCases)
    func classLife(_ engine: StorageEngine) async throws {
        try await Self.withApp(engine) { app in
            let classes = try await app.classes()
            let (teacher, session) = try await classes.signUp(name: "Ms Lan", password: "correct horse battery")
            #expect(!session.isEmpty)
            let year3 = try await classes.createClass(named: "Year 3 Blue", by: teacher)
            #expect(ClassRules.code(year3.code) == year3.code)
            let an = try await classes.addChild(named: "An", to: year3.code, by: teacher)
            let roster = try await classes.importChildren(csv: "name\nMinh Anh\n\"Bảo\",extra\n", to: year3.code.lowercased(), by: teacher)
            #expect(roster.map(\.firstName) == ["Minh Anh", "Bảo"])
            #expect(await Self.refused(.childNameTaken) { try await classes.addChild(named: "an", to: year3.code, by: teacher) })
            #expect(await Self.refused(.badName) { try await classes.importChildren(csv: "Ok\nbad\u{7}name\n", to: year3.code, by: teacher) })
            #expect(try await classes.details(year3.code, by: teacher).children.count == 3, "a bad roster adds nobody")

            let assignment = try await classes.assign(to: year3.code, category: "animals", level: .starters, words: [], dueAt: nil, by: teacher)
            #expect(assignment.entries.count == 5 && assignment.title == "Animals · Starters")
            // A child added later gets the class's words too.
            let late = try await classes.addChild(named: "Khoa", to: year3.code, by: teacher)
            for child in [an, late] {
                let words = try await app.learning().library(of: try #require(try await app.learning().store.learner(id: child.id))).map(\.item.word)
                #expect(Set(words) == ["cat", "dog", "fish", "bird", "horse"], "\(child.firstName): \(words)")
            }

            // The child's sign-in: code, first name, pictures. Wrong pictures, a wrong name or code: nil, alike.
            let wrong = an.pictures.reversed().map { $0 }
            #expect(try await classes.signInChild(code: year3.code, firstName: "An", pictures: wrong) == .refused)
            #expect(try await classes.signInChild(code: year3.code, firstName: "Anh", pictures: an.pictures) == .refused)
            #expect(try await classes.signInChild(code: "ZZZZZZ", firstName: "An", pictures: an.pictures) == .refused)
            let signed = try #require(try await classes.signInChild(code: year3.code.lowercased(), firstName: " an ", pictures: an.pictures).signedIn)
            #expect(signed.learner.id == an.id)
            #expect(try await app.learning().learner(session: signed.session)?.id == an.id)
            // A child is not an adult: no class pages.
            #expect(await Self.refused(.adultsOnly) { try await classes.classes(of: signed.learner) })
            #expect(await Self.refused(.adultsOnly) { try await classes.createClass(named: "Mine", by: signed.learner) })
            let mine = try await classes.assignments(for: signed.learner)
            #expect(mine.map(\.title) == ["Animals · Starters"] && mine.first?.answered == 0)

            // New pictures: the old ones and the child's sessions stop working.
            let reset = try await classes.resetPictures(of: an.id, in: year3.code, by: teacher)
            #expect(try await app.learning().learner(session: signed.session) == nil)
            if reset.pictures != an.pictures {
                #expect(try await classes.signInChild(code: year3.code, firstName: "An", pictures: an.pictures) == .refused)
            }
            #expect(try await classes.signInChild(code: year3.code, firstName: "An", pictures: reset.pictures).signedIn != nil)

            // Removing the assignment keeps the words; removing a child from the class keeps the child.
            try await classes.unassign(assignment.id, from: year3.code, by: teacher)
            let anLearner = try #require(try await app.learning().store.learner(id: an.id))
            #expect(try await app.learning().library(of: anLearner).count == 5)
            try await classes.removeChild(late.id, from: year3.code, by: teacher)
            #expect(try await app.learning().store.learner(id: late.id) != nil)
            #expect(try await classes.details(year3.code, by: teacher).children.map(\.firstName) == ["An", "Minh Anh", "Bảo"])
        }
    }

    @Test(
        "an adult reaches only their own classes and children; a child in a school and a family class is seen by each adult in their own class only; deleting a child leaves nothing of theirs",
        arguments: StorageEngine.allCases)
    func confinement(_ engine: StorageEngine) async throws {
        try await Self.withApp(engine) { app in
            let classes = try await app.classes()
            let (teacher, _) = try await classes.signUp(name: "teacher", password: "correct horse battery")
            let (parent, _) = try await classes.signUp(name: "parent", password: "correct horse battery")
            let school = try await classes.createClass(named: "School", by: teacher)
            let family = try await classes.createClass(named: "Family", by: parent)
            let child = try await classes.addChild(named: "Lan", to: school.code, by: teacher)
            _ = try await classes.addChild(named: "Hoa", to: family.code, by: parent)
            // The parent cannot see, change or probe the teacher's class: the same answer as no class at all.
            for attempt in [
                { _ = try await classes.details(school.code, by: parent) },
                { _ = try await classes.addChild(named: "Mallory", to: school.code, by: parent) },
                { _ = try await classes.assign(to: school.code, category: "animals", level: nil, words: [], dueAt: nil, by: parent) },
                { _ = try await classes.progress(of: school.code, by: parent) },
                { _ = try await classes.resetPictures(of: child.id, in: school.code, by: parent) },
                { try await classes.removeChild(child.id, from: school.code, by: parent) },
                { try await classes.deleteChild(child.id, in: school.code, by: parent) },
                { try await classes.deleteClass(school.code, by: parent) },
            ] as [@Sendable () async throws -> Void] {
                #expect(await Self.refused(.unknownClass, attempt))
            }
            // Naming the teacher's child in the parent's own class: not one of theirs.
            #expect(await Self.refused(.unknownChild) { try await classes.resetPictures(of: child.id, in: family.code, by: parent) })
            #expect(await Self.refused(.unknownChild) { try await classes.deleteChild(child.id, in: family.code, by: parent) })
            #expect(try await classes.classes(of: parent).map(\.name) == ["Family"])

            // The parent adds the school's child to the family class with the teacher's invitation;
            // a made-up one, or the parent's own for a child they did not add, does nothing.
            #expect(await Self.refused(.badInvitation) { try await classes.addExistingChild(to: family.code, invitation: "ABCDE-FGHJK", by: parent) })
            #expect(await Self.refused(.unknownChild) { try await classes.invite(child.id, in: family.code, by: parent) })
            let invitation = try await classes.invite(child.id, in: school.code, by: teacher)
            _ = try await classes.addExistingChild(to: family.code, invitation: invitation.invitation.lowercased(), by: parent)
            #expect(
                await Self.refused(.badInvitation) { try await classes.addExistingChild(to: family.code, invitation: invitation.invitation, by: parent) },
                "an invitation is used once")
            // Only the adult who added her gives her new pictures or invites her on.
            #expect(await Self.refused(.notCreator) { try await classes.resetPictures(of: child.id, in: family.code, by: parent) })
            #expect(await Self.refused(.notCreator) { try await classes.invite(child.id, in: family.code, by: parent) })
            #expect(try await classes.details(family.code, by: parent).children.map(\.firstName) == ["Hoa", "Lan"])
            #expect(try await classes.details(school.code, by: teacher).children.map(\.firstName) == ["Lan"], "the teacher still sees only the school class")
            #expect(await Self.refused(.unknownClass) { try await classes.details(school.code, by: parent) })
            // While the family class has her, neither adult deletes her; the parent may only take her out.
            #expect(await Self.refused(.childShared) { try await classes.deleteChild(child.id, in: family.code, by: parent) })
            #expect(await Self.refused(.childShared) { try await classes.deleteChild(child.id, in: school.code, by: teacher) })
            try await classes.removeChild(child.id, from: family.code, by: parent)

            // Progress counts answers: a wrong first answer is Again.
            _ = try await classes.assign(to: school.code, category: "animals", level: .starters, words: [], dueAt: nil, by: teacher)
            let lan = try #require(try await app.learning().store.learner(id: child.id))
            let items = try await app.learning().library(of: lan)
            _ = try await app.learning().rate(item: items[0].item.id, rating: .again, for: lan)
            _ = try await app.learning().rate(item: items[1].item.id, rating: .good, for: lan)
            let report = try await classes.progress(of: school.code, by: teacher)
            #expect(report.children.first?.answers == 2 && report.children.first?.accuracy == 0.5 && report.children.first?.daysPractised == 1)
            #expect(report.hardWords.first?.word == items[0].item.word && report.hardWords.first?.again == 1)
            #expect(report.assignments.first?.finished == [] && report.csv.hasPrefix("name,days practised"))
            #expect(report.csv.contains("Lan,1,0,0,5,2,50,"))

            // Deleting the child: nothing of theirs is left.
            try await classes.deleteChild(child.id, in: school.code, by: teacher)
            #expect(try await app.learning().store.learner(id: child.id) == nil)
            #expect(try await app.learning().store.reviews(of: child.id, since: 0).isEmpty)
            #expect(try await classes.details(school.code, by: teacher).children.isEmpty)
            #expect(try await classes.signInChild(code: school.code, firstName: "Lan", pictures: child.pictures) == .refused)
        }
    }
}

extension ClassService.SignIn: Equatable {
    /// The learner and session of a sign-in that worked.
    var signedIn: (learner: Learner, session: String)? {
        if case .signedIn(let learner, let session) = self { return (learner, session) }
        return nil
    }

    var kind: String {
        switch self {
        case .signedIn: "signed in"
        case .refused: "refused"
        case .locked: "locked"
        }
    }

    var lockedUntil: Double? {
        if case .locked(let until) = self { return until }
        return nil
    }

    public static func == (a: Self, b: Self) -> Bool {
        switch (a, b) {
        case (.refused, .refused): true
        case (.locked(let x), .locked(let y)): x == y
        case (.signedIn(let x, let s), .signedIn(let y, let t)): x.id == y.id && s == t
        default: false
        }
    }
}
