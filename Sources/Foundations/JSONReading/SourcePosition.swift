/// Where in a file something is: 1-based line and column, and the 0-based byte offset.
///
/// Columns count characters (Unicode scalars), not bytes, so they match what an editor shows
/// on a line of Chinese text; the byte offset is there for tools such as `dd` or `head -c`.
public struct SourcePosition: Sendable, Equatable, CustomStringConvertible {
    public let line: Int
    public let column: Int
    public let offset: Int

    public init(line: Int, column: Int, offset: Int) {
        self.line = line
        self.column = column
        self.offset = offset
    }

    /// Counts lines and characters up to `offset`. Only errors need this, so a linear scan is
    /// fine (tens of milliseconds for the whole dictionary).
    public init(offset: Int, in bytes: UnsafeBufferPointer<UInt8>) {
        let limit = min(max(offset, 0), bytes.count)
        var line = 1
        var lineStart = 0
        for i in 0..<limit where bytes[i] == 0x0A {
            line += 1
            lineStart = i + 1
        }
        var column = 1
        for i in lineStart..<limit where bytes[i] & 0xC0 != 0x80 { column += 1 }
        self.init(line: line, column: column, offset: offset)
    }

    public var description: String { "line \(line), column \(column) (byte \(offset))" }
}
