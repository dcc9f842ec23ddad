import AppCore
import Catalog
import Classes
import Foundation
import HummingbirdBcrypt
import Learners

/// Classes for adults and children, the same for the CLI and the server: every method names
/// who asks, and answers only about that adult's own classes or that child's own data. A class
/// that is not the asker's is "unknown", exactly like one that does not exist.
public struct ClassService: Sendable {
    let learning: LearningService
    let book: ClassBook
    /// The sign-in guard's records of names nobody has, and the order checks of a class run in.
    let ledger: SignInLedger
    /// Where a child's Say it recordings are kept, if anywhere: a deleted child's go too.
    let archive: RecordingArchive?
    var store: any LearnerStore { learning.store }
    var catalog: CatalogService { learning.catalog }

    public init(learning: LearningService, book: ClassBook, archive: RecordingArchive? = nil) {
        self.learning = learning
        self.book = book
        self.archive = archive
        self.ledger = SignInLedger()
    }

    /// bcrypt's cost for picture passwords: there are only 504 of them, so what protects one is
    /// the sign-in limit, not the hash; a cheap hash keeps adding thirty children quick.
    static let pictureCost: UInt8 = 6

    // MARK: Who asks

    /// The child account of a learner, if they are a child.
    public func child(_ learner: Learner) async throws -> ChildAccount? { try await book.child(learner.id) }

    func requireAdult(_ learner: Learner) async throws {
        if try await book.child(learner.id) != nil { throw ClassError.adultsOnly }
    }

    func owned(_ code: String, by adult: Learner) async throws -> SchoolClass {
        try await requireAdult(adult)
        guard let normal = ClassRules.code(code), let found = try await book.schoolClass(normal), found.ownerID == adult.id else {
            throw ClassError.unknownClass(Failure.quote(code, limit: 12))
        }
        return found
    }

    /// A child of the class whom this adult added: only they change the child's sign-in.
    func added(_ childID: Int64, of schoolClass: SchoolClass, by adult: Learner) async throws -> (Learner, ChildAccount) {
        let (learner, account) = try await member(childID, of: schoolClass)
        guard account.createdBy == adult.id else { throw ClassError.notCreator(account.firstName) }
        return (learner, account)
    }

    func member(_ childID: Int64, of schoolClass: SchoolClass) async throws -> (Learner, ChildAccount) {
        guard try await book.members(of: schoolClass.code).contains(where: { $0.learnerID == childID }),
            let account = try await book.child(childID), let learner = try await store.learner(id: childID)
        else {
            throw ClassError.unknownChild(childID)
        }
        return (learner, account)
    }

    // MARK: Adults

    /// A new adult account with a password, signed in: how a teacher or parent starts.
    public func signUp(name: String, password: String) async throws -> (learner: Learner, session: String) {
        try PasswordRules.check(password)
        let (learner, _) = try await learning.addLearner(named: name)
        try await learning.setPassword(password, for: learner)
        return (learner, try await learning.startSession(for: learner))
    }

    public func createClass(named name: String, by adult: Learner) async throws -> SchoolClass {
        try await requireAdult(adult)
        let name = try ClassRules.className(name)
        guard try await book.classes(ownedBy: adult.id).count < ClassRules.maxClassesPerAdult else {
            throw ClassError.tooMany("an adult has at most \(ClassRules.maxClassesPerAdult) classes.")
        }
        var generator = SystemRandomNumberGenerator()
        var code = ClassRules.newCode(using: &generator)
        while try await book.schoolClass(code) != nil { code = ClassRules.newCode(using: &generator) }
        let made = SchoolClass(code: code, name: name, ownerID: adult.id, createdAt: learning.now())
        try await book.put(made)
        return made
    }

    public func classes(of adult: Learner) async throws -> [ClassSummary] {
        try await requireAdult(adult)
        var out: [ClassSummary] = []
        for c in try await book.classes(ownedBy: adult.id) {
            out.append(ClassSummary(c, children: try await book.members(of: c.code).count, assignments: try await book.assignments(of: c.code).count))
        }
        return out
    }

    public func details(_ code: String, by adult: Learner) async throws -> ClassDetails {
        let found = try await owned(code, by: adult)
        let now = learning.now()
        var children: [ChildSummary] = []
        for m in try await book.members(of: found.code) {
            guard let account = try await book.child(m.learnerID) else { continue }
            let state = try await book.guardState(ofChild: m.learnerID) ?? PictureGuard.State()
            children.append(ChildSummary(account, signIn: SignInReport(state, at: now), asked: adult))
        }
        let classState = try await book.guardState(ofClass: found.code) ?? PictureGuard.ClassState()
        return ClassDetails(
            code: found.code, name: found.name, createdAt: found.createdAt, children: children,
            assignments: try await assignments(of: found.code),
            failedSignInsToday: classState.unforgiven(since: now - PictureGuard.day))
    }

    /// Deletes the class with its memberships and assignments; the children keep their accounts,
    /// words and history (they may be in another class), and their sessions end.
    public func deleteClass(_ code: String, by adult: Learner) async throws {
        let found = try await owned(code, by: adult)
        let members = try await book.members(of: found.code)
        try await book.deleteClass(found.code)
        for m in members { _ = try await store.revokeTokens(of: m.learnerID, at: learning.now()) }
    }

    /// Adds a child by first name with a new picture password, returned once for the adult to
    /// print; the class's assignments go into the child's library.
    public func addChild(named firstName: String, to code: String, by adult: Learner) async throws -> NewChild {
        let ownedClass = try await owned(code, by: adult)
        let name = try ClassRules.firstName(firstName)
        let members = try await book.members(of: ownedClass.code)
        guard members.count < ClassRules.maxChildrenPerClass else {
            throw ClassError.tooMany("a class has at most \(ClassRules.maxChildrenPerClass) children.")
        }
        let found = try await indexed(ownedClass)
        if try await book.childID(named: name, in: found.code) != nil { throw ClassError.childNameTaken(name) }
        var generator = SystemRandomNumberGenerator()
        let learner = try await store.createLearner(name: ClassRules.learnerName(using: &generator), at: learning.now())
        let pictures = ClassRules.randomPictures(using: &generator)
        let hash = try await pictureHash(pictures)
        try await book.put(ChildAccount(learnerID: learner.id, firstName: name, pictureHash: hash, createdBy: adult.id))
        try await book.add(Membership(classCode: found.code, learnerID: learner.id, addedAt: learning.now()))
        try await book.putName(name, of: learner.id, in: found.code)
        for assignment in try await assignments(of: found.code) { try await apply(assignment, to: learner) }
        return NewChild(id: learner.id, firstName: name, classCode: found.code, pictures: pictures)
    }

    /// Children from a roster: one first name a line (a header "name" or "first name" is
    /// skipped, a second column ignored). Checked whole before anyone is added.
    public func importChildren(csv: String, to code: String, by adult: Learner) async throws -> [NewChild] {
        _ = try await owned(code, by: adult)
        var names: [String] = []
        for (number, line) in csv.split(whereSeparator: \.isNewline).enumerated() {
            let first = String(line.split(separator: ",", maxSplits: 1, omittingEmptySubsequences: false).first ?? "")
                .trimmingCharacters(in: CharacterSet(charactersIn: " \"\u{FEFF}"))
            if first.isEmpty || (number == 0 && ["name", "first name", "firstname", "tên"].contains(first.lowercased())) { continue }
            do { names.append(try ClassRules.firstName(first)) } catch {
                throw ClassError.badName("line \(number + 1): \(error.description)")
            }
        }
        var added: [NewChild] = []
        for name in names { added.append(try await addChild(named: name, to: code, by: adult)) }
        return added
    }

    /// A new picture password for a child the adult added (the old one stops working, the
    /// child's sessions end, and the sign-in guard starts afresh). Only the adult who added the
    /// child may: an adult whose class the child joined cannot take the child's sign-in over.
    public func resetPictures(of childID: Int64, in code: String, by adult: Learner) async throws -> NewChild {
        let found = try await owned(code, by: adult)
        var (learner, account) = try await added(childID, of: found, by: adult)
        var generator = SystemRandomNumberGenerator()
        let pictures = ClassRules.randomPictures(using: &generator)
        account.pictureHash = try await pictureHash(pictures)
        try await book.put(account)
        try await book.forgetGuardState(ofChild: learner.id)
        _ = try await store.revokeTokens(of: learner.id, at: learning.now())
        learner = try await store.learner(id: learner.id) ?? learner
        return NewChild(id: learner.id, firstName: account.firstName, classCode: found.code, pictures: pictures)
    }

    /// Lets a locked-out child sign in again with the pictures they have: the guard forgets
    /// their failures. Any adult whose class the child is in may.
    public func unlock(_ childID: Int64, in code: String, by adult: Learner) async throws -> ChildSummary {
        let found = try await owned(code, by: adult)
        let (_, account) = try await member(childID, of: found)
        try await book.forgetGuardState(ofChild: childID)
        return ChildSummary(account, signIn: SignInReport(PictureGuard.State(), at: learning.now()), asked: adult)
    }

    /// The creating adult's consent for the child to join another adult's class: a code shown
    /// once, good for one join within a week.
    public func invite(_ childID: Int64, in code: String, by adult: Learner) async throws -> NewInvitation {
        let (_, account) = try await added(childID, of: try await owned(code, by: adult), by: adult)
        var generator = SystemRandomNumberGenerator()
        let text = ClassRules.newInvitation(using: &generator)
        let expires = learning.now() + ClassRules.invitationLifetime
        try await book.put(
            Invitation(id: Self.invitationID(ClassRules.invitation(text)!), learnerID: childID, createdBy: adult.id, expiresAt: expires))
        return NewInvitation(invitation: text, childID: childID, firstName: account.firstName, expiresAt: expires)
    }

    static func invitationID(_ normal: String) -> String {
        Tokens.hash("invitation:" + normal).map { String(format: "%02x", $0) }.joined()
    }

    /// Adds a child of another adult's class (a school's child to their family's class) with
    /// the invitation that adult gave: the pictures alone never let anyone take a child along.
    public func addExistingChild(to code: String, invitation text: String, by adult: Learner) async throws -> ChildSummary {
        let found = try await indexed(try await owned(code, by: adult))
        guard let normal = ClassRules.invitation(text), let invitation = try await book.invitation(Self.invitationID(normal)),
            invitation.expiresAt > learning.now(), let account = try await book.child(invitation.learnerID),
            let learner = try await store.learner(id: invitation.learnerID)
        else { throw ClassError.badInvitation }
        let summary = ChildSummary(account, signIn: nil, asked: adult)
        if try await book.members(of: found.code).contains(where: { $0.learnerID == learner.id }) { return summary }
        if try await book.childID(named: account.firstName, in: found.code) != nil { throw ClassError.childNameTaken(account.firstName) }
        try await book.deleteInvitation(invitation.id)
        try await book.add(Membership(classCode: found.code, learnerID: learner.id, addedAt: learning.now()))
        try await book.putName(account.firstName, of: learner.id, in: found.code)
        for assignment in try await assignments(of: found.code) { try await apply(assignment, to: learner) }
        return summary
    }

    /// Takes a child out of the class; their account, words and history stay, their sessions
    /// end (they sign in again through a class they are still in), and a child of that name
    /// can be added again.
    public func removeChild(_ childID: Int64, from code: String, by adult: Learner) async throws {
        let found = try await owned(code, by: adult)
        _ = try await member(childID, of: found)
        try await book.remove(childID, from: found.code)
        _ = try await store.revokeTokens(of: childID, at: learning.now())
    }

    /// Deletes a child the adult added, with everything of theirs, when no other adult's class
    /// has them.
    public func deleteChild(_ childID: Int64, in code: String, by adult: Learner) async throws {
        let found = try await owned(code, by: adult)
        let (_, account) = try await member(childID, of: found)
        for m in try await book.memberships(of: childID) where m.classCode != found.code {
            if try await book.schoolClass(m.classCode)?.ownerID != adult.id { throw ClassError.childShared(account.firstName) }
        }
        guard account.createdBy == adult.id else { throw ClassError.childShared(account.firstName) }
        try await book.deleteChild(childID)
        _ = try await store.deleteLearner(childID)
        try await archive?.forget(learner: childID)
    }

    /// Sets words for the class: a category (at a level) or hand-picked words. Each child gets
    /// them in their library.
    public func assign(to code: String, category: String?, level: Level?, words: [String], dueAt: Double?, by adult: Learner) async throws -> Assignment {
        let found = try await owned(code, by: adult)
        var entries: [String] = []
        var title: String
        if let category {
            let page = try await catalog.words(in: category, level: level, limit: ClassRules.maxAssignmentWords + 1)
            guard page.total <= ClassRules.maxAssignmentWords else {
                throw ClassError.tooMany("an assignment has at most \(ClassRules.maxAssignmentWords) words; choose a level.")
            }
            entries = page.rows.map(\.id)
            title = page.category.name.en + (level.map { " · " + $0.rawValue.capitalized } ?? "")
        } else {
            guard !words.isEmpty, words.count <= ClassRules.maxAssignmentWords else {
                throw ClassError.tooMany("give a category or 1-\(ClassRules.maxAssignmentWords) words.")
            }
            for word in words {
                let text = try InputRules.text(word, name: "word", pathSafe: false)
                entries += try await catalog.entries(for: text).map(\.id)
            }
            title = words.prefix(3).joined(separator: ", ") + (words.count > 3 ? "…" : "")
        }
        var seen: Set<String> = []
        entries = entries.filter { seen.insert($0).inserted }
        let assignment = Assignment(
            id: UUID().uuidString.lowercased(), classCode: found.code, title: title, category: category,
            level: level?.rawValue, entries: entries, dueAt: dueAt, createdAt: learning.now())
        try await book.put(assignment)
        for m in try await book.members(of: found.code) {
            if let learner = try await store.learner(id: m.learnerID) { try await apply(assignment, to: learner) }
        }
        return assignment
    }

    /// Removes an assignment; what the children saved and their history stay.
    public func unassign(_ id: String, from code: String, by adult: Learner) async throws {
        let found = try await owned(code, by: adult)
        guard try await book.assignments(of: found.code).contains(where: { $0.id == id }) else { throw ClassError.unknownAssignment(Failure.quote(id)) }
        try await book.deleteAssignment(id)
    }

    public func progress(of code: String, by adult: Learner) async throws -> ClassReport {
        let found = try await owned(code, by: adult)
        let members = try await book.members(of: found.code)
        // The children's cards, totals and names: a few reads for the class, not a few per child.
        async let records = store.records(of: members.map(\.learnerID))
        let accounts = try await book.children(members.map(\.learnerID))
        let rows = try await records
        let read = Dictionary(
            uniqueKeysWithValues: members.enumerated().compactMap { index, m -> (Int, ClassProgress.ChildData)? in
                guard let account = accounts[m.learnerID], let r = rows[m.learnerID] else { return nil }
                return (index, ClassProgress.ChildData(id: m.learnerID, firstName: account.firstName, cards: r.cards, totals: r.totals))
            })
        let moves = try await catalog.moves()
        let data = read.keys.sorted().compactMap { read[$0] }.map { child in
            var child = child
            child.cards = Self.following(moves, child.cards)
            return child
        }
        let days = learning.reviewer.days
        return ClassReport(
            code: found.code, name: found.name, children: data.map { ClassProgress.child($0, days: days) },
            hardWords: ClassProgress.hardWords(data),
            assignments: try await assignments(of: found.code, moves: moves).map { ClassProgress.assignment($0, children: data) })
    }

    // MARK: Children

    /// What a check of a child's pictures came to.
    public enum SignIn: Sendable {
        case signedIn(learner: Learner, session: String)
        /// Wrong code, name or pictures: the caller cannot tell which.
        case refused
        /// Too many wrong pictures for this name: not checked, until then (seconds since 1970).
        case locked(until: Double)
    }

    /// A child's sign-in on a shared device: the class code, their first name and their pictures.
    public func signInChild(code: String, firstName: String, pictures: [Int]) async throws -> SignIn {
        switch try await checkPictures(code: code, firstName: firstName, pictures: pictures) {
        case .child(let learner): .signedIn(learner: learner, session: try await learning.startSession(for: learner))
        case .refused: .refused
        case .locked(let until): .locked(until: until)
        }
    }

    /// Every check of a child's pictures, whatever asks (`PictureGuard` decides): the child
    /// these sign-in details name, when all three are right and the name is not locked. An
    /// unknown code, an unknown name and wrong pictures take the same steps, in the same time.
    /// The checks of one class run one at a time, so that a burst of guesses is counted whole.
    func checkPictures(code: String, firstName: String, pictures: [Int]) async throws -> Check {
        let normal = ClassRules.code(code)
        let key = normal ?? "?" + String(code.uppercased().prefix(12))
        return try await ledger.serially(key) {
            let now = learning.now()
            var schoolClass = if let normal { try await book.schoolClass(normal) } else { nil as SchoolClass? }
            if let found = schoolClass { schoolClass = try await indexed(found) }
            let childID = try await book.childID(named: firstName, in: key)
            // Id 0 is nobody's: the read is made whether or not the class and name exist.
            let child = try await book.child(schoolClass == nil ? 0 : childID ?? 0)
            let nameKey = key + ":" + ClassBook.nameKey(firstName)
            // The records: a child's and a class's in the database, a name nobody has in memory
            // (after the same reads).
            var state = try await book.guardState(ofChild: child?.learnerID ?? 0) ?? PictureGuard.State()
            if child == nil { state = ledger.state(of: nameKey) }
            var classState = try await book.guardState(ofClass: key) ?? PictureGuard.ClassState()
            if schoolClass == nil { classState = ledger.classState(of: key) }
            let children = try await book.memberCount(of: key)
            if let until = state.locked(at: now) { return .locked(until: until) }

            let secret = try? ClassRules.pictureSecret(pictures)
            let hash = child?.pictureHash
            let decoy = Self.decoy
            let matches = try await learning.passwordWork { Bcrypt.verify(secret ?? "none", hash: hash ?? decoy) && hash != nil && secret != nil }
            if matches, let child, let learner = try await store.learner(id: child.learnerID) {
                (state, classState) = PictureGuard.succeeded(state, classState: classState, at: now)
                try await book.putGuardState(state, ofChild: child.learnerID)
                try await book.putGuardState(classState, ofClass: key)
                return .child(learner)
            }
            (state, classState) = PictureGuard.failed(state, classState: classState, children: children, at: now)
            // A record kept in memory is written to the decoy instead, so that every failure
            // writes as much as a child's.
            if let child {
                try await book.putGuardState(state, ofChild: child.learnerID)
            } else {
                ledger.keep(state, of: nameKey, at: now)
                try await book.touchDecoy(state)
            }
            if schoolClass != nil {
                try await book.putGuardState(classState, ofClass: key)
            } else {
                ledger.keep(classState, of: key, at: now)
                try await book.touchDecoy(classState)
            }
            return .refused
        }
    }

    enum Check {
        case child(Learner)
        case refused
        case locked(until: Double)
    }

    static let decoy = Bcrypt.hash("pictures:decoy", cost: pictureCost)

    /// The class with its children's names kept for sign-in (written once for a class made before).
    func indexed(_ schoolClass: SchoolClass) async throws -> SchoolClass {
        schoolClass.namesIndexed == true ? schoolClass : try await book.indexNames(of: schoolClass)
    }

    /// The name to show for a learner: a child's first name, never their internal one.
    public func displayName(of learner: Learner) async throws -> String {
        try await book.child(learner.id)?.firstName ?? learner.name
    }

    /// A child's assignments across their classes (a child in a school and a family class sees both).
    public func assignments(for child: Learner) async throws -> [ChildAssignment] {
        var out: [ChildAssignment] = []
        let memberships = try await book.memberships(of: child.id)
        guard !memberships.isEmpty else { return [] }
        let moves = try await catalog.moves()
        let cards = Self.following(moves, try await store.cards(of: child.id))
        let answered = Set(cards.filter { $0.card.card.reps > 0 && $0.item.key.source == .catalog }.map(\.item.key.entry))
        for m in memberships {
            guard let c = try await book.schoolClass(m.classCode) else { continue }
            for a in try await assignments(of: c.code, moves: moves) {
                out.append(
                    ChildAssignment(
                        id: a.id, className: c.name, title: a.title, category: a.category, level: a.level,
                        words: a.entries.count, answered: a.entries.filter(answered.contains).count, dueAt: a.dueAt))
            }
        }
        return out
    }

    // MARK: Helpers

    /// A class's assignments, naming entries by their ids of today: an assignment made before
    /// a word was split into senses names the entry its id became (`school/right`).
    func assignments(of code: String, moves: [String: String]? = nil) async throws -> [Assignment] {
        let moves = if let moves { moves } else { try await catalog.moves() }
        return try await book.assignments(of: code).map { assignment in
            var assignment = assignment
            assignment.entries = assignment.entries.map { moves[$0] ?? $0 }
            return assignment
        }
    }

    /// Cards as they will be once their learner's library follows the moves (it does when read).
    static func following(_ moves: [String: String], _ cards: [(item: SavedItem, card: CardRecord)]) -> [(item: SavedItem, card: CardRecord)] {
        guard !moves.isEmpty else { return cards }
        return cards.map { pair in
            guard pair.item.key.source == .catalog, let now = moves[pair.item.key.entry] else { return pair }
            var item = pair.item
            item.key.entry = now
            return (item, pair.card)
        }
    }

    func apply(_ assignment: Assignment, to learner: Learner) async throws {
        for entry in assignment.entries {
            guard let found = try await catalog.entry(id: entry) else { continue }
            _ = try await learning.save(found.word.word, for: learner, source: .catalog, entry: entry)
        }
    }

    func pictureHash(_ pictures: [Int]) async throws -> String {
        let secret = try ClassRules.pictureSecret(pictures)
        return try await learning.passwordWork { Bcrypt.hash(secret, cost: Self.pictureCost) }
    }
}

// MARK: Answers

public struct ClassSummary: Sendable, Codable, Equatable {
    public var code: String
    public var name: String
    public var children: Int
    public var assignments: Int

    public init(_ c: SchoolClass, children: Int, assignments: Int) {
        code = c.code
        name = c.name
        self.children = children
        self.assignments = assignments
    }
}

public struct ChildSummary: Sendable, Codable, Equatable {
    public var id: Int64
    public var firstName: String
    /// How the child's picture sign-in went lately (on the class's own page).
    public var signIn: SignInReport?
    /// Whether the asking adult added the child (and so may give new pictures or invite them).
    public var addedByYou: Bool?

    /// The child as the adult `asked` sees them.
    init(_ account: ChildAccount, signIn: SignInReport?, asked adult: Learner) {
        id = account.learnerID
        firstName = account.firstName
        self.signIn = signIn
        addedByYou = account.createdBy == adult.id
    }
}

/// What the adult sees of a child's picture sign-ins: failures today and this week, and a lock.
public struct SignInReport: Sendable, Codable, Equatable {
    public var failedToday: Int
    public var failedThisWeek: Int
    /// Locked until then (seconds since 1970); nil when the child can sign in.
    public var lockedUntil: Double?

    public init(_ state: PictureGuard.State, at now: Double) {
        failedToday = state.failures(since: now - PictureGuard.day)
        failedThisWeek = state.failures(since: now - PictureGuard.week)
        lockedUntil = state.locked(at: now)
    }
}

/// An invitation just made: the only time its code is shown.
public struct NewInvitation: Sendable, Codable, Equatable {
    public var invitation: String
    public var childID: Int64
    public var firstName: String
    public var expiresAt: Double
}

public struct ClassDetails: Sendable, Codable, Equatable {
    public var code: String
    public var name: String
    public var createdAt: Double
    public var children: [ChildSummary]
    public var assignments: [Assignment]
    /// Failed picture sign-ins in the class in the last day that no sign-in forgave.
    public var failedSignInsToday: Int
}

/// A child just added or given new pictures: the only time the pictures are shown.
public struct NewChild: Sendable, Codable, Equatable {
    public var id: Int64
    public var firstName: String
    public var classCode: String
    /// Positions in `ClassRules.pictures`, in order.
    public var pictures: [Int]

    public var pictureText: String { pictures.map { ClassRules.pictures[$0] }.joined(separator: " ") }
}

public struct ClassReport: Sendable, Codable, Equatable {
    public var code: String
    public var name: String
    public var children: [ChildProgress]
    public var hardWords: [HardWord]
    public var assignments: [AssignmentProgress]

    /// The class table as CSV for a spreadsheet: one row a child.
    public var csv: String {
        func field(_ s: String) -> String { s.contains(where: { ",\"\n".contains($0) }) ? "\"" + s.replacingOccurrences(of: "\"", with: "\"\"") + "\"" : s }
        var lines = ["name,days practised,words learned,words said well,words,answers,accuracy %,last active"]
        for c in children {
            let last = c.lastActive.map { ISO8601DateFormatter().string(from: Date(timeIntervalSince1970: $0)) } ?? ""
            lines.append(
                [
                    field(c.firstName), String(c.daysPractised), String(c.wordsLearned), String(c.wordsSaidWell), String(c.words),
                    String(c.answers),
                    c.accuracy.map { String(Int(($0 * 100).rounded())) } ?? "", last,
                ].joined(separator: ","))
        }
        return lines.joined(separator: "\n") + "\n"
    }
}

public struct ChildAssignment: Sendable, Codable, Equatable {
    public var id: String
    public var className: String
    public var title: String
    public var category: String?
    public var level: String?
    public var words: Int
    public var answered: Int
    public var dueAt: Double?
}
