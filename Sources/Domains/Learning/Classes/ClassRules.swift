import Learners

/// The rules of classes, the same for every engine and front end.
public enum ClassRules {
    /// Codes use letters and digits a child cannot confuse (no I, O, 0, 1).
    public static let codeAlphabet = Array("ABCDEFGHJKLMNPQRSTUVWXYZ23456789")
    public static let codeLength = 6

    public static func newCode<G: RandomNumberGenerator>(using generator: inout G) -> String {
        String((0..<codeLength).map { _ in codeAlphabet.randomElement(using: &generator)! })
    }

    /// A code as typed: any case, spaces and dashes ignored; nil when it cannot be one.
    public static func code(_ text: String) -> String? {
        let cleaned = text.uppercased().filter { $0 != " " && $0 != "-" }
        guard cleaned.count == codeLength, cleaned.allSatisfy(codeAlphabet.contains) else { return nil }
        return cleaned
    }

    /// The nine pictures a picture password is chosen from, in the order the sign-in page shows them.
    public static let pictures = ["🐶", "🐱", "🐰", "🦊", "🐸", "🐟", "🍎", "🚗", "⭐"]
    public static let pictureNames = ["dog", "cat", "rabbit", "fox", "frog", "fish", "apple", "car", "star"]
    /// Three pictures in order: 504 sequences, guarded by the sign-in limits like passwords.
    public static let picturesChosen = 3

    /// The secret a picture password is: three different positions in `pictures`, in order.
    public static func pictureSecret(_ picks: [Int]) throws(ClassError) -> String {
        guard picks.count == picturesChosen, Set(picks).count == picturesChosen, picks.allSatisfy(pictures.indices.contains) else {
            throw .badPictures("a picture password is \(picturesChosen) different pictures of the \(pictures.count), in order.")
        }
        return "pictures:" + picks.map(String.init).joined(separator: "-")
    }

    /// Every picture password there is (504): what a guesser has to go through.
    public static var everyPictureSequence: [[Int]] {
        let all = Array(pictures.indices)
        return all.flatMap { a in all.flatMap { b in all.compactMap { c in Set([a, b, c]).count == 3 ? [a, b, c] : nil } } }
    }

    public static func randomPictures<G: RandomNumberGenerator>(using generator: inout G) -> [Int] {
        Array(pictures.indices.shuffled(using: &generator).prefix(picturesChosen))
    }

    /// A child's first name as the adult types it: 1-30 letters, spaces, '-', '.' or '''.
    public static func firstName(_ text: String) throws(ClassError) -> String {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        let ok =
            (1...30).contains(trimmed.count)
            && trimmed.unicodeScalars.allSatisfy {
                $0.properties.isAlphabetic || " -.'".unicodeScalars.contains($0) || $0.properties.generalCategory == .nonspacingMark
            }
        guard ok else { throw .badName("a child's first name is 1-30 letters (spaces, '-', '.' and ''' too), like Minh Anh.") }
        return trimmed
    }

    /// The learner name a child gets: random, and in a space of its own (`LearnerCoding.childNamePrefix`
    /// starts it, and no adult's name may), so that no adult's sign-up collides with it or
    /// learns from it who is in a class; never shown, never typed.
    public static func learnerName<G: RandomNumberGenerator>(using generator: inout G) -> String {
        LearnerCoding.childNamePrefix + String((0..<16).map { _ in codeAlphabet.randomElement(using: &generator)! }).lowercased()
    }

    /// Whether an adult may take this name: not one of the children's (the prefix), and not
    /// of the shape children's names had before they were random ("Anselmo.K7PQ2R"), for any
    /// name of that shape, so that the answer says nothing about who is in a class.
    public static func isAdultName(_ name: String) -> Bool {
        let trimmed = name.trimmingCharacters(in: .whitespaces)
        if trimmed.hasPrefix(LearnerCoding.childNamePrefix) { return false }
        let parts = trimmed.split(separator: ".", omittingEmptySubsequences: false)
        if parts.count == 2, !parts[0].isEmpty, parts[0].allSatisfy({ $0.isLetter || $0 == "-" }), code(String(parts[1])) == String(parts[1]).uppercased(),
            parts[1].count == codeLength
        {
            return false
        }
        return true
    }

    public static func className(_ text: String) throws(ClassError) -> String {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        guard (1...60).contains(trimmed.count), !trimmed.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) else {
            throw .badName("a class name is 1-60 characters, like 'Year 3 Blue' or 'Family'.")
        }
        return trimmed
    }

    public static let maxClassesPerAdult = 50
    public static let maxChildrenPerClass = 60
    public static let maxAssignmentWords = 200

    /// An invitation code: ten letters and digits of the code alphabet (50 bits), in two groups.
    public static func newInvitation<G: RandomNumberGenerator>(using generator: inout G) -> String {
        let letters = String((0..<10).map { _ in codeAlphabet.randomElement(using: &generator)! })
        return String(letters.prefix(5)) + "-" + String(letters.suffix(5))
    }

    /// An invitation code as typed: any case, spaces and dashes ignored; nil when it cannot be one.
    public static func invitation(_ text: String) -> String? {
        let cleaned = text.uppercased().filter { $0 != " " && $0 != "-" }
        guard cleaned.count == 10, cleaned.allSatisfy(codeAlphabet.contains) else { return nil }
        return cleaned
    }

    public static let invitationLifetime = 7 * 86_400.0
}

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif
