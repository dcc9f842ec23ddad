import Crypto
import Foundation

/// API tokens: 32 random bytes, shown once as `vocab_<base64url>`; only their SHA-256 is kept,
/// so a copy of the database lets nobody in.
public enum Tokens {
    public static let prefix = "vocab_"

    /// A new token from the system's cryptographic random source.
    public static func generate() -> String {
        var generator = SystemRandomNumberGenerator()
        let bytes = (0..<32).map { _ in UInt8.random(in: 0...255, using: &generator) }
        return prefix + Data(bytes).base64EncodedString()
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
