import Store

/// Classes, children and assignments kept as documents in the learners' own database (user.sqlite,
/// or the "user" space of PostgreSQL), through the `DocumentStore` both engines implement: this
/// code is written once for both.
public struct ClassBook: Sendable {
    let documents: any DocumentStore

    public init(documents: any DocumentStore) { self.documents = documents }

    static let classes = "classes", members = "class_members", children = "children", assignments = "assignments"
    /// A child by class and first name: what a sign-in looks up, in one read whatever the class's size.
    static let names = "class_names"
    /// `PictureGuard`'s records: "child:ID" for a child, "class:CODE" for a class.
    static let guards = "sign_in_guard"
    static let invitations = "class_invitations"

    // MARK: Classes

    public func put(_ value: SchoolClass) async throws {
        try await documents.put([try Document(id: value.code, encoding: value)], in: Self.classes)
    }

    public func schoolClass(_ code: String) async throws -> SchoolClass? {
        try await documents.get(code, in: Self.classes)?.decode()
    }

    public func classes(ownedBy adult: Int64) async throws -> [SchoolClass] {
        try await documents.query(Query(Self.classes, filters: [.equal("ownerID", .integer(adult))]).ordered(by: "createdAt"))
            .map { try $0.decode() }
    }

    /// Deletes the class, its memberships and its assignments; the children and their data stay.
    public func deleteClass(_ code: String) async throws {
        for m in try await members(of: code) { try await remove(m.learnerID, from: code) }
        try await documents.delete("class:" + code, in: Self.guards)
        for a in try await assignments(of: code) { try await documents.delete(a.id, in: Self.assignments) }
        try await documents.delete(code, in: Self.classes)
    }

    // MARK: Members

    static func memberID(_ code: String, _ learner: Int64) -> String { "\(code):\(learner)" }

    public func add(_ membership: Membership) async throws {
        try await documents.put([try Document(id: Self.memberID(membership.classCode, membership.learnerID), encoding: membership)], in: Self.members)
    }

    public func members(of code: String) async throws -> [Membership] {
        try await documents.query(Query(Self.members, filters: [.equal("classCode", .string(code))]).ordered(by: "addedAt")).map { try $0.decode() }
    }

    /// How many children the class has, in one small answer whatever its size.
    public func memberCount(of code: String) async throws -> Int {
        try await documents.count(Query(Self.members, filters: [.equal("classCode", .string(code))]))
    }

    public func memberships(of learner: Int64) async throws -> [Membership] {
        try await documents.query(Query(Self.members, filters: [.equal("learnerID", .integer(learner))])).map { try $0.decode() }
    }

    /// Takes the child out of the class, and their name with them (a child of that name can be added again).
    @discardableResult
    public func remove(_ learner: Int64, from code: String) async throws -> Bool {
        if let account = try await child(learner), try await childID(named: account.firstName, in: code) == learner {
            try await removeName(account.firstName, in: code)
        }
        return try await documents.delete(Self.memberID(code, learner), in: Self.members)
    }

    // MARK: Children

    public func put(_ child: ChildAccount) async throws {
        try await documents.put([try Document(id: String(child.learnerID), encoding: child)], in: Self.children)
    }

    public func child(_ learner: Int64) async throws -> ChildAccount? {
        try await documents.get(String(learner), in: Self.children)?.decode()
    }

    /// Several children's accounts in one read, by learner id; ids without an account are left out.
    public func children(_ learners: [Int64]) async throws -> [Int64: ChildAccount] {
        let found: [ChildAccount] = try await documents.get(learners.map(String.init), in: Self.children).map { try $0.decode() }
        return Dictionary(found.map { ($0.learnerID, $0) }, uniquingKeysWith: { first, _ in first })
    }

    /// Forgets a child entirely: their account and every membership.
    public func deleteChild(_ learner: Int64) async throws {
        for m in try await memberships(of: learner) { try await remove(learner, from: m.classCode) }
        try await forgetGuardState(ofChild: learner)
        try await documents.delete(String(learner), in: Self.children)
    }

    // MARK: Sign-in names

    /// The key a first name is looked up by: any case, surrounding spaces ignored.
    public static func nameKey(_ firstName: String) -> String { firstName.trimmingCharacters(in: .whitespaces).lowercased() }

    static func nameID(_ code: String, _ firstName: String) -> String { code + ":" + nameKey(firstName) }

    /// The child of class `code` called `firstName` (any case), in one read.
    public func childID(named firstName: String, in code: String) async throws -> Int64? {
        try await documents.get(Self.nameID(code, firstName), in: Self.names)?.decode(SignInName.self).learnerID
    }

    public func putName(_ firstName: String, of learner: Int64, in code: String) async throws {
        let name = SignInName(classCode: code, nameKey: Self.nameKey(firstName), learnerID: learner)
        try await documents.put([try Document(id: Self.nameID(code, firstName), encoding: name)], in: Self.names)
    }

    public func removeName(_ firstName: String, in code: String) async throws {
        try await documents.delete(Self.nameID(code, firstName), in: Self.names)
    }

    /// Writes the names of a class made before names were kept apart from members (once per
    /// class; the class then says so).
    public func indexNames(of schoolClass: SchoolClass) async throws -> SchoolClass {
        for m in try await members(of: schoolClass.code) {
            if let account = try await child(m.learnerID) { try await putName(account.firstName, of: m.learnerID, in: schoolClass.code) }
        }
        var indexed = schoolClass
        indexed.namesIndexed = true
        try await put(indexed)
        return indexed
    }

    // MARK: Sign-in guard

    public func guardState(ofChild learner: Int64) async throws -> PictureGuard.State? {
        try await documents.get("child:\(learner)", in: Self.guards)?.decode()
    }

    public func putGuardState(_ state: PictureGuard.State, ofChild learner: Int64) async throws {
        try await documents.put([try Document(id: "child:\(learner)", encoding: state)], in: Self.guards)
    }

    public func guardState(ofClass code: String) async throws -> PictureGuard.ClassState? {
        try await documents.get("class:" + code, in: Self.guards)?.decode()
    }

    public func putGuardState(_ state: PictureGuard.ClassState, ofClass code: String) async throws {
        try await documents.put([try Document(id: "class:" + code, encoding: state)], in: Self.guards)
    }

    /// A write of the same shape as a real record's, for a name or class nobody has: the answer
    /// then takes as long as for a child's.
    public func touchDecoy(_ record: some Encodable) async throws {
        try await documents.put([try Document(id: "decoy", encoding: record)], in: Self.guards)
    }

    public func forgetGuardState(ofChild learner: Int64) async throws {
        try await documents.delete("child:\(learner)", in: Self.guards)
    }

    // MARK: Invitations

    public func put(_ invitation: Invitation) async throws {
        try await documents.put([try Document(id: invitation.id, encoding: invitation)], in: Self.invitations)
    }

    public func invitation(_ id: String) async throws -> Invitation? {
        try await documents.get(id, in: Self.invitations)?.decode()
    }

    @discardableResult
    public func deleteInvitation(_ id: String) async throws -> Bool {
        try await documents.delete(id, in: Self.invitations)
    }

    // MARK: Assignments

    public func put(_ assignment: Assignment) async throws {
        try await documents.put([try Document(id: assignment.id, encoding: assignment)], in: Self.assignments)
    }

    public func assignments(of code: String) async throws -> [Assignment] {
        try await documents.query(Query(Self.assignments, filters: [.equal("classCode", .string(code))]).ordered(by: "createdAt"))
            .map { try $0.decode() }
    }

    @discardableResult
    public func deleteAssignment(_ id: String) async throws -> Bool {
        try await documents.delete(id, in: Self.assignments)
    }
}
