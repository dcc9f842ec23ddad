import Foundation

/// Maps what people type for a radical to the form the dictionary files it under.
///
/// The dictionary uses the 214 Kangxi radicals in their full form (水, 人, 手…), but learners
/// know them from the shapes they take inside characters (氵, 亻, 扌…), and radical charts often
/// paste the Kangxi Radicals block (⽔ U+2F54) rather than the ideograph. Some variants are
/// radicals of their own in this dictionary (攵 beside 攴), so the form as typed comes first.
public enum RadicalForm {
    /// The forms to try, most literal first, without repeats.
    public static func candidates(_ text: String) -> [String] {
        let typed = text.trimmingCharacters(in: .whitespacesAndNewlines)
        // NFKC turns the Kangxi Radicals block into the ordinary ideographs.
        let folded = typed.precomposedStringWithCompatibilityMapping
        var forms: [String] = []
        for form in [typed, folded, variants[typed], variants[folded]] {
            if let form, !form.isEmpty, !forms.contains(form) { forms.append(form) }
        }
        return forms
    }

    private static let variants: [String: String] = [
        "氵": "水", "⺡": "水", "氺": "水", "亻": "人", "⺅": "人", "扌": "手", "⺘": "手",
        "忄": "心", "⺖": "心", "⺗": "心", "艹": "艸", "⺾": "艸", "⺿": "艸", "⻀": "艸",
        "辶": "辵", "⻌": "辵", "⻍": "辵", "⻎": "辵", "刂": "刀", "⺉": "刀", "犭": "犬", "⺨": "犬",
        "礻": "示", "⺭": "示", "衤": "衣", "⻂": "衣", "灬": "火", "⺣": "火", "罒": "网", "⺫": "网",
        "纟": "糸", "糹": "糸", "⺯": "糸", "钅": "金", "釒": "金", "⻐": "金", "飠": "食", "饣": "食",
        "⻟": "食", "讠": "言", "訁": "言", "⻈": "言", "爫": "爪", "⺤": "爪", "牜": "牛", "⺧": "牛",
        "耂": "老", "⺹": "老", "⺙": "攴", "丬": "爿", "⺦": "爿", "⺼": "肉", "王": "玉",
        "⺩": "玉", "⻊": "足", "𧾷": "足", "⺻": "聿", "⺺": "聿", "⻗": "雨", "⺌": "小", "⺍": "小",
    ]
}
