/// The bounds of what a request may ask for, the same on the command line and over HTTP
/// (a test runs both front ends against them). Large enough for any listing the catalog and
/// the dictionary have, small enough that one request cannot make the service build megabytes.
public enum Limits {
    /// Words per page of a category listing.
    public static let page = 1...1000
    public static let defaultPage = 200
    /// How far into a listing a page may start.
    public static let offset = 0...100_000
    /// Results of a search.
    public static let search = 1...100
    public static let defaultSearch = 30
    /// Characters per page of a stroke or radical listing, and readings of a pinyin search.
    public static let characters = 1...1000
    public static let defaultCharacters = 200
    /// Words or entries of a random draw.
    public static let random = 1...500
    public static let defaultRandom = 20
    /// Stroke counts that exist in the dictionary (the most is 64).
    public static let strokes = 1...64
    /// Paces a clip may be spoken at, in hundredths of the voice's own (0.75 is slower, for
    /// children); each pace is a clip of its own, so the steps are hundredths, not any number.
    public static let speedHundredths = 50...150
    /// Catalog entries saved by one request (a whole category at every level is under 200).
    public static let entriesPerSave = 1...1000
    /// A recording of a learner saying a word: its size in bytes, checked before anything is
    /// decoded (ten seconds of 48 kHz 16-bit stereo WAV is 1.9 MB), and its length in seconds,
    /// checked from its header before its samples are decoded.
    public static let attemptBytes = 1...2_000_000
    public static let attemptSeconds = 10.0
    /// Longest word, title, category or search text, in Unicode code points.
    public static let textLength = 100
}
