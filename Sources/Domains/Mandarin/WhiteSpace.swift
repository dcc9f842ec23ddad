extension String {
    /// The text without leading and trailing white space: the scalars with Unicode's White_Space
    /// property, the same set as Foundation's `.whitespacesAndNewlines`, whose
    /// `trimmingCharacters(in:)` FoundationEssentials lacks.
    public func trimmingWhiteSpace() -> String {
        let scalars = unicodeScalars
        guard let first = scalars.firstIndex(where: { !$0.properties.isWhitespace }) else { return "" }
        let last = scalars.lastIndex(where: { !$0.properties.isWhitespace })!
        return String(scalars[first...last])
    }
}
