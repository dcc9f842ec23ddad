import Foundation

/// Any JSON value, decoded precisely (a boolean is never taken for a number).
enum JSONValue: Decodable, Equatable {
    case null
    case bool(Bool)
    case number(Double)
    case string(String)
    case array([JSONValue])
    case object([String: JSONValue])

    init(from decoder: Decoder) throws {
        let c = try decoder.singleValueContainer()
        if c.decodeNil() {
            self = .null
        } else if let b = try? c.decode(Bool.self) {
            self = .bool(b)
        } else if let n = try? c.decode(Double.self) {
            self = .number(n)
        } else if let s = try? c.decode(String.self) {
            self = .string(s)
        } else if let a = try? c.decode([JSONValue].self) {
            self = .array(a)
        } else {
            self = .object(try c.decode([String: JSONValue].self))
        }
    }

    /// From JSONSerialization output (the document's own examples and enums), by a round
    /// trip through JSON text so that booleans stay booleans.
    init(any: Any) {
        guard let data = try? JSONSerialization.data(withJSONObject: any, options: [.fragmentsAllowed]),
            let value = try? JSONDecoder().decode(JSONValue.self, from: data)
        else {
            self = .null
            return
        }
        self = value
    }
}

/// The parts of an OpenAPI 3.0 document the tests need, and a validator for the schema
/// keywords the document uses: $ref, type, nullable, enum, required, properties,
/// additionalProperties, items, minimum, maximum.
struct OpenAPIDocument {
    struct Operation {
        var method: String
        var path: String
        /// By status, with `$ref`s to shared responses resolved.
        var responses: [String: [String: Any]]
        var parameters: [[String: Any]]
        var hasBody: Bool
        /// The security schemes it asks for (empty: public).
        var security: [String]
    }

    let root: [String: Any]
    let operations: [Operation]

    init(path: String) throws {
        let data = try Data(contentsOf: URL(fileURLWithPath: path))
        guard let root = try JSONSerialization.jsonObject(with: data) as? [String: Any] else { throw ClientError("not a JSON object") }
        self.root = root
        func resolved(_ node: [String: Any]) -> [String: Any] {
            guard let ref = node["$ref"] as? String, ref.hasPrefix("#/") else { return node }
            var current: Any = root
            for part in ref.dropFirst(2).split(separator: "/") { current = (current as? [String: Any])?[String(part)] ?? [:] }
            return current as? [String: Any] ?? [:]
        }
        var ops: [Operation] = []
        for (path, item) in (root["paths"] as? [String: Any]) ?? [:] {
            for (method, body) in (item as? [String: Any]) ?? [:] where ["get", "put", "post", "delete", "patch", "head", "options"].contains(method) {
                let o = body as? [String: Any] ?? [:]
                let responses = (o["responses"] as? [String: Any] ?? [:]).compactMapValues { ($0 as? [String: Any]).map(resolved) }
                let security = (o["security"] as? [[String: Any]] ?? []).flatMap(\.keys)
                ops.append(
                    Operation(
                        method: method.uppercased(), path: path, responses: responses,
                        parameters: o["parameters"] as? [[String: Any]] ?? [], hasBody: o["requestBody"] != nil, security: security))
            }
        }
        operations = ops
    }

    var version: String { root["openapi"] as? String ?? "" }

    func resolve(_ schema: [String: Any]) -> [String: Any]? {
        guard let ref = schema["$ref"] as? String else { return schema }
        guard ref.hasPrefix("#/") else { return nil }
        var node: Any = root
        for part in ref.dropFirst(2).split(separator: "/") {
            guard let next = (node as? [String: Any])?[String(part)] else { return nil }
            node = next
        }
        return node as? [String: Any]
    }

    /// Every `$ref` anywhere in the document that points nowhere.
    func danglingReferences() -> [String] {
        var out: [String] = []
        func walk(_ node: Any) {
            if let o = node as? [String: Any] {
                if o["$ref"] != nil, resolve(o) == nil { out.append(o["$ref"] as? String ?? "?") }
                o.values.forEach(walk)
            } else if let a = node as? [Any] {
                a.forEach(walk)
            }
        }
        walk(root)
        return out
    }

    /// `example` values next to a schema (media types and schemas), with that schema.
    func examples() -> [(String, JSONValue, [String: Any])] {
        var out: [(String, JSONValue, [String: Any])] = []
        func walk(_ node: Any, _ where_: String) {
            if let o = node as? [String: Any] {
                if let example = o["example"], let schema = o["schema"] as? [String: Any] {
                    out.append((where_, JSONValue(any: example), schema))
                } else if let example = o["example"], o["type"] != nil || o["$ref"] != nil {
                    out.append((where_, JSONValue(any: example), o))
                }
                for (k, v) in o where k != "example" { walk(v, where_ + "/" + k) }
            } else if let a = node as? [Any] {
                for (i, element) in a.enumerated() { walk(element, where_ + "/\(i)") }
            }
        }
        walk(root, "#")
        return out
    }

    func validate(_ value: JSONValue, against schema: [String: Any], at path: String = "$") -> [String] {
        guard let s = resolve(schema) else { return ["\(path): unresolvable schema \(schema)"] }
        if case .null = value {
            return (s["nullable"] as? Bool == true) ? [] : ["\(path): null but not nullable"]
        }
        if let allowed = s["enum"] as? [Any] {
            let options = allowed.map(JSONValue.init(any:))
            if !options.contains(value) { return ["\(path): \(value) not in enum"] }
        }
        var problems: [String] = []
        switch (s["type"] as? String, value) {
        case ("string", .string), ("boolean", .bool): break
        case ("integer", .number(let n)):
            if n.rounded() != n { problems.append("\(path): \(n) is not an integer") }
            problems += bounds(n, s, path)
        case ("number", .number(let n)): problems += bounds(n, s, path)
        case ("array", .array(let items)):
            if let itemSchema = s["items"] as? [String: Any] {
                for (i, item) in items.enumerated() { problems += validate(item, against: itemSchema, at: "\(path)[\(i)]") }
            }
        case ("object", .object(let fields)):
            for name in (s["required"] as? [String]) ?? [] where fields[name] == nil {
                problems.append("\(path): required field '\(name)' missing")
            }
            let properties = (s["properties"] as? [String: Any]) ?? [:]
            for (name, field) in fields {
                if let p = properties[name] as? [String: Any] {
                    problems += validate(field, against: p, at: "\(path).\(name)")
                } else if let extra = s["additionalProperties"] as? [String: Any] {
                    problems += validate(field, against: extra, at: "\(path).\(name)")
                } else if s["additionalProperties"] as? Bool == false || !properties.isEmpty {
                    problems.append("\(path): field '\(name)' is not documented")
                }
            }
        case (nil, _): break
        case (let type?, _): problems.append("\(path): expected \(type), got \(value)")
        }
        return problems
    }

    private func bounds(_ n: Double, _ s: [String: Any], _ path: String) -> [String] {
        var out: [String] = []
        if let min = (s["minimum"] as? NSNumber)?.doubleValue, n < min { out.append("\(path): \(n) < minimum \(min)") }
        if let max = (s["maximum"] as? NSNumber)?.doubleValue, n > max { out.append("\(path): \(n) > maximum \(max)") }
        return out
    }
}
