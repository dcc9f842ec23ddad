import Crypto
import Foundation

/// API tokens: 32 random bytes, shown once as `vocab_<base64url>`; only their SHA-256 is kept,
/// so a copy of the database lets nobody in.
public enum Tokens {
    public static let prefix = "vocab_"

    /// A new token from the system's cryptographic random source.
    public static func generate() -> String { generate(prefix: prefix) }

    static func generate(prefix: String) -> String {
        var generator = SystemRandomNumberGenerator()
        let bytes = (0..<32).map { _ in UInt8.random(in: 0...255, using: &generator) }
        return prefix
            + Data(bytes).base64EncodedString()
            .replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_").replacingOccurrences(of: "=", with: "")
    }

    /// What is stored and looked up.
    public static func hash(_ token: String) -> [UInt8] {
        Array(SHA256.hash(data: Data(token.utf8)))
    }

    /// Whether text has a token's shape at all: anything else is refused before any lookup.
    public static func isWellFormed(_ token: String) -> Bool {
        token.hasPrefix(prefix) && token.utf8.count == prefix.utf8.count + 43
            && token.utf8.dropFirst(prefix.utf8.count).allSatisfy { b in
                (b >= 0x30 && b <= 0x39) || (b >= 0x41 && b <= 0x5A) || (b >= 0x61 && b <= 0x7A) || b == 0x2D || b == 0x5F
            }
    }
}

/// Browser sessions: a random token in an HttpOnly cookie, stored as its SHA-256 like an API
/// token, valid for a fixed time. Requests that change data and are signed in by the cookie
/// must also carry the session's CSRF token in a header: a page of another site can make the
/// browser send the cookie but cannot read the CSRF token, which is derived from the session
/// token (so it needs no storage) and given only to the page that signed in.
public enum Sessions {
    public static let prefix = "vs_"
    /// How long a session lasts from sign-in.
    public static let lifetime: Double = 30 * 86_400

    public static func generate() -> String { Tokens.generate(prefix: prefix) }

    public static func hash(_ token: String) -> [UInt8] { Tokens.hash(token) }

    public static func isWellFormed(_ token: String) -> Bool {
        token.hasPrefix(prefix) && Tokens.isWellFormed(Tokens.prefix + token.dropFirst(prefix.count))
    }

    /// The CSRF token of a session: a different hash of the same secret, so knowing it tells
    /// nothing about the cookie.
    public static func csrf(for token: String) -> String {
        Data(SHA256.hash(data: Data(("vocab-csrf\u{0}" + token).utf8))).base64EncodedString()
            .replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_").replacingOccurrences(of: "=", with: "")
    }
}
