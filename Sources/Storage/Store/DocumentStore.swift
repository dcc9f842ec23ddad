/// A scalar a query compares against.
public enum FieldValue: Sendable, Hashable {
    case string(String)
    case integer(Int64)
    case double(Double)
    case bool(Bool)
}

extension FieldValue: ExpressibleByStringLiteral, ExpressibleByIntegerLiteral {
    public init(stringLiteral value: String) { self = .string(value) }
    public init(integerLiteral value: Int64) { self = .integer(value) }
}

/// One condition of a query, in Firestore's terms.
public enum Filter: Sendable, Hashable {
    /// The field's scalar value equals the value.
    case equal(String, FieldValue)
    /// The field is an array with an element equal to the value.
    case arrayContains(String, FieldValue)
    /// The field (or, for an array, one of its elements) is a string starting with the prefix.
    case prefix(String, String)
    /// The field (or one of its elements) is a string containing the text.
    case contains(String, String)

    public var field: String {
        switch self {
        case .equal(let f, _), .arrayContains(let f, _), .prefix(let f, _), .contains(let f, _): return f
        }
    }
}

public struct Ordering: Sendable, Hashable {
    public var field: String
    public var descending: Bool
    public init(_ field: String, descending: Bool = false) {
        self.field = field
        self.descending = descending
    }
}

/// A query over one collection: every filter must hold.
public struct Query: Sendable, Hashable {
    public var collection: String
    public var filters: [Filter]
    public var order: [Ordering]
    public var limit: Int?
    public var offset: Int

    public init(_ collection: String, filters: [Filter] = [], order: [Ordering] = [], limit: Int? = nil, offset: Int = 0) {
        self.collection = collection
        self.filters = filters
        self.order = order
        self.limit = limit
        self.offset = offset
    }

    public func filter(_ f: Filter) -> Query {
        var q = self
        q.filters.append(f)
        return q
    }
    public func ordered(by field: String, descending: Bool = false) -> Query {
        var q = self
        q.order.append(Ordering(field, descending: descending))
        return q
    }
    public func limited(to n: Int?, offset: Int = 0) -> Query {
        var q = self
        q.limit = n
        q.offset = offset
        return q
    }
}

/// A JSON document with its id, kept as JSON text so readers can pass it on without re-encoding.
public struct Document: Sendable, Hashable {
    public var id: String
    public var json: String
    public init(id: String, json: String) {
        self.id = id
        self.json = json
    }
}

public struct StoreError: Error, CustomStringConvertible, Sendable {
    public let description: String
    public init(_ description: String) { self.description = description }
}

/// A document with a few of its fields picked out (Firestore's `select`), so readers that need
/// three fields do not have to decode the whole body. Object and array fields come as JSON text.
public struct Projection: Sendable, Hashable {
    public var document: Document
    public var values: [FieldValue?]

    public init(document: Document, values: [FieldValue?]) {
        self.document = document
        self.values = values
    }

    public func string(_ i: Int) -> String? {
        switch values[i] {
        case .string(let s): return s
        case .integer(let n): return String(n)
        case .double(let d): return String(d)
        case .bool(let b): return String(b)
        case nil: return nil
        }
    }

    public func integer(_ i: Int) -> Int? {
        if case .integer(let n) = values[i] { return Int(n) }
        return nil
    }
}

/// Named collections of JSON documents with Firestore-like queries.
/// The seam where another engine (a hosted document database) could be plugged in.
public protocol DocumentStore: Sendable {
    /// Declares a field (a dotted path) whose values queries on `collection` look up by index.
    func ensureIndex(on field: String, in collection: String) async throws
    /// Inserts or replaces documents, all or none.
    func put(_ documents: [Document], in collection: String) async throws
    func get(_ id: String, in collection: String) async throws -> Document?
    /// The documents of these ids that exist, in no particular order: one read for many.
    func get(_ ids: [String], in collection: String) async throws -> [Document]
    /// Removes a document; false when there was none.
    @discardableResult func delete(_ id: String, in collection: String) async throws -> Bool
    func query(_ query: Query) async throws -> [Document]
    /// The matching documents with the values of `fields` picked out, in the query's order.
    func select(_ fields: [String], matching query: Query) async throws -> [Projection]
    func count(_ query: Query) async throws -> Int
    /// How many matching documents have each value of `field` (elements, for an array field).
    func valueCounts(of field: String, matching query: Query) async throws -> [FieldValue: Int]
    /// Changes whenever the content changes; caches compare it to know they are stale.
    func revision() async throws -> String
}

/// The rule for field paths every engine follows: they are spliced into SQL (an ORDER BY, a
/// JSON path), so only plain dotted names of letters, digits and `_` are allowed.
public enum FieldPath {
    public static func check(_ field: String) throws {
        let ok =
            !field.isEmpty
            && field.split(separator: ".", omittingEmptySubsequences: false).allSatisfy { part in
                !part.isEmpty && part.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "_") }
            }
        if !ok { throw StoreError("invalid field name '\(field)': use letters, digits, _ and dots") }
    }
}
