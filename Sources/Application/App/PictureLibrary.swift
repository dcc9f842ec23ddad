import Catalog
import FileAccess

/// The catalog's picture files (`Pictures/<set>/<name>.svg`), checked as `vocab validate`
/// checks the rest of the catalog: each file an entry names is there, is an SVG and is small
/// enough to send to a child's phone on a school's network.
public struct PictureLibrary: Sendable {
    /// The largest picture file: OpenMoji's drawings are at most 17 KB, Mulberry's symbols 30 KB.
    public static let sizeLimit = 32 * 1024

    public let root: String

    public init(root: String) { self.root = root }

    /// Every `image` of the catalog's words that names no usable file, as validation issues.
    public func referenceIssues(_ files: [CategoryFile], names: [String]) -> [ValidationIssue] {
        var issues: [ValidationIssue] = []
        for (index, file) in files.enumerated() {
            let name = index < names.count ? names[index] : "\(file.id).json"
            for word in file.words {
                guard let image = word.image, let problem = problem(with: image) else { continue }
                issues.append(ValidationIssue(file: name, word: word.word, message: "image '\(image)' \(problem)"))
            }
        }
        return issues
    }

    /// What is wrong with the file `image` names, if anything.
    public func problem(with image: String) -> String? {
        let path: String
        do { path = try ContainedFile.resolve(image, inside: root) } catch { return "names no file inside \(root) (\(error))" }
        guard ContainedFile.isRegular(path) else { return "is not a regular file" }
        let bytes: [UInt8]
        do { bytes = try ContainedFile.read(path, limit: Self.sizeLimit) } catch { return "is larger than \(Self.sizeLimit / 1024) KiB" }
        return Self.isSVG(bytes) ? nil : "is not an SVG file"
    }

    /// An SVG document: `<svg`, after an XML declaration, comments or a byte-order mark.
    static func isSVG(_ bytes: [UInt8]) -> Bool {
        let head = String(decoding: bytes.prefix(2048), as: UTF8.self)
        guard let svg = head.range(of: "<svg") else { return false }
        let before = head[..<svg.lowerBound].replacing(#/<\?xml[^>]*\?>|<!--(?:[^-]|-[^-])*-->|\s|\u{FEFF}/#, with: "")
        return before.isEmpty
    }
}
