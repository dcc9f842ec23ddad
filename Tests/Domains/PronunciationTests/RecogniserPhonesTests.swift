import Testing

@testable import Pronunciation

/// The catalog's dictionary IPA, written in the phones the recogniser knows.
struct RecogniserPhonesTests {
    @Test(
        "stress, length and syllable marks go; r, affricates, r-coloured vowels and British vowels become the recogniser's",
        arguments: [
            ("ˈdɒktə", ["d", "ɑ", "k", "t", "ə"]),
            ("ˈdɑːktər", ["d", "ɑ", "k", "t", "ɝ"]),
            ("ˈɑːrtɪst", ["ɑ", "ɹ", "t", "ɪ", "s", "t"]),
            ("kætʃ", ["k", "æ", "t͡ʃ"]),
            ("ˌendʒɪˈnɪə", ["ɛ", "n", "d͡ʒ", "ɪ", "n", "ɪ"]),
            ("nɜːs", ["n", "ɝ", "s"]),
            ("ɡəʊt", ["g", "oʊ", "t"]),
            ("ˈfɪlm stɑː", ["f", "ɪ", "l", "m", "s", "t", "ɑ"]),
        ])
    func phones(ipa: String, expected: [String]) {
        #expect(RecogniserPhones.phones(ipa) == expected)
    }
}
