/// The one "more" line of every paged listing (`vocab words`, `strokes`, `radical`, reading
/// searches): what is left after this page and the offset that shows it.
public enum Paging {
    /// "… 28 more: use --offset 3" when the page stops short of the total, else nil.
    public static func moreLine(total: Int, offset: Int, shown: Int) -> String? {
        guard offset + shown < total else { return nil }
        return "… \(grouped(total - offset - shown)) more: use --offset \(offset + shown)"
    }

    /// 163087 → "163,087".
    public static func grouped(_ n: Int) -> String {
        let digits = String(n)
        var out = ""
        for (i, ch) in digits.enumerated() {
            if i > 0, (digits.count - i) % 3 == 0, ch != "-" { out.append(",") }
            out.append(ch)
        }
        return out
    }
}
