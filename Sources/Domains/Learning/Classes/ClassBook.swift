import Store

/// Classes, children and assignments kept as documents in the learners' own database (user.sqlite,
/// or the "user" space of PostgreSQL), through the `DocumentStore` both engines implement: this
/// code is written once for both.
public struct ClassBook: Sendable {
    let documents: any DocumentStore

    public init(documents: any DocumentStore) { self.documents = documents }

    static let classes = "classes", members = "class_members", children = "children", assignments = "assignments"

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
        for m in try await members(of: code) { try await documents.delete(Self.memberID(code, m.learnerID), in: Self.members) }
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

    public func memberships(of learner: Int64) async throws -> [Membership] {
        try await documents.query(Query(Self.members, filters: [.equal("learnerID", .integer(learner))])).map { try $0.decode() }
    }

    @discardableResult
    public func remove(_ learner: Int64, from code: String) async throws -> Bool {
        try await documents.delete(Self.memberID(code, learner), in: Self.members)
    }

    // MARK: Children

    public func put(_ child: ChildAccount) async throws {
        try await documents.put([try Document(id: String(child.learnerID), encoding: child)], in: Self.children)
    }

    public func child(_ learner: Int64) async throws -> ChildAccount? {
        try await documents.get(String(learner), in: Self.children)?.decode()
    }

    /// Forgets a child entirely: their account and every membership.
    public func deleteChild(_ learner: Int64) async throws {
        for m in try await memberships(of: learner) { try await remove(learner, from: m.classCode) }
        try await documents.delete(String(learner), in: Self.children)
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
