/// A class: a teacher's group of children, or a family (a parent's). Its code is its id and
/// what a child types (or an adult prints) to sign in on a shared device.
public struct SchoolClass: Sendable, Codable, Equatable {
    public var code: String
    public var name: String
    /// The adult (a learner with a password) who owns it: the only one who sees and changes it.
    public var ownerID: Int64
    public var createdAt: Double
    /// Whether its children's names are kept for sign-in (`ClassBook.names`); classes made
    /// before that have them written on their first sign-in.
    public var namesIndexed: Bool?

    public init(code: String, name: String, ownerID: Int64, createdAt: Double, namesIndexed: Bool? = true) {
        self.code = code
        self.name = name
        self.ownerID = ownerID
        self.createdAt = createdAt
        self.namesIndexed = namesIndexed
    }
}

/// A child of a class by first name: what a sign-in reads.
public struct SignInName: Sendable, Codable, Equatable {
    public var classCode: String
    public var nameKey: String
    public var learnerID: Int64
}

/// The consent of the adult who added a child to their joining another adult's class: a code
/// given once, kept only as its hash, used once, for a week.
public struct Invitation: Sendable, Codable, Equatable {
    /// The hash of the code (hex).
    public var id: String
    public var learnerID: Int64
    public var createdBy: Int64
    public var expiresAt: Double

    public init(id: String, learnerID: Int64, createdBy: Int64, expiresAt: Double) {
        self.id = id
        self.learnerID = learnerID
        self.createdBy = createdBy
        self.expiresAt = expiresAt
    }
}

/// What makes a learner a child: a first name an adult gave them and a picture password. A
/// child has no password and no token, so the adults' sign-in cannot reach them.
public struct ChildAccount: Sendable, Codable, Equatable {
    public var learnerID: Int64
    public var firstName: String
    /// bcrypt of the picture sequence (`ClassRules.pictureSecret`), never the pictures.
    public var pictureHash: String
    /// The adult who added the child: only they may delete the child with all their data.
    public var createdBy: Int64

    public init(learnerID: Int64, firstName: String, pictureHash: String, createdBy: Int64) {
        self.learnerID = learnerID
        self.firstName = firstName
        self.pictureHash = pictureHash
        self.createdBy = createdBy
    }
}

/// A child in a class. A child may be in two (school and family): each adult sees them in
/// their own class only.
public struct Membership: Sendable, Codable, Equatable {
    public var classCode: String
    public var learnerID: Int64
    public var addedAt: Double

    public init(classCode: String, learnerID: Int64, addedAt: Double) {
        self.classCode = classCode
        self.learnerID = learnerID
        self.addedAt = addedAt
    }
}

/// Words an adult set for a class: a category at a level, or a hand-picked list, resolved to
/// catalog entries when assigned. They go into each child's library; removing the assignment
/// leaves what a child saved and their history alone.
public struct Assignment: Sendable, Codable, Equatable {
    public var id: String
    public var classCode: String
    public var title: String
    public var category: String?
    public var level: String?
    /// Catalog entry ids ("animals/cat").
    public var entries: [String]
    public var dueAt: Double?
    public var createdAt: Double

    public init(
        id: String, classCode: String, title: String, category: String?, level: String?, entries: [String],
        dueAt: Double?, createdAt: Double
    ) {
        self.id = id
        self.classCode = classCode
        self.title = title
        self.category = category
        self.level = level
        self.entries = entries
        self.dueAt = dueAt
        self.createdAt = createdAt
    }
}

public enum ClassError: Error, Sendable, Equatable, CustomStringConvertible {
    /// No class with this code, or not one of the asking adult's (the same answer, so codes
    /// cannot be probed).
    case unknownClass(String)
    /// A child's session asked for an adult's page.
    case adultsOnly
    case unknownChild(Int64)
    case unknownAssignment(String)
    case childNameTaken(String)
    /// The child is in another adult's class too: only removed from this one, never deleted.
    case childShared(String)
    case badName(String)
    case badPictures(String)
    case tooMany(String)
    /// Too many wrong pictures for this name: a child is told kindly to ask their adult.
    case signInLocked(retryAfter: Int)
    /// Only the adult who added the child may give new pictures or invite them elsewhere.
    case notCreator(String)
    /// An invitation code that is unknown, used or out of date (the same answer for each).
    case badInvitation

    public var description: String {
        switch self {
        case .unknownClass(let code): "there is no class '\(code)' of yours."
        case .adultsOnly: "only an adult's account may do this."
        case .unknownChild(let id): "there is no child \(id) in this class."
        case .unknownAssignment(let id): "there is no assignment '\(id)' in this class."
        case .childNameTaken(let name): "the class has a child called \(name) already; add a letter of the family name (\(name) B.)."
        case .childShared(let name): "\(name) is in another adult's class too: remove them from this class instead."
        case .badName(let why): why
        case .badPictures(let why): why
        case .tooMany(let why): why
        case .signInLocked: "these pictures were wrong too many times: ask your teacher or parent to help you sign in."
        case .notCreator(let name): "\(name) was added by another adult: only they can do this."
        case .badInvitation: "this invitation code is unknown, used or out of date: ask the adult who added the child for a new one."
        }
    }
}
