/// Maps what people type for a radical to the form the dictionary files it under.
///
/// The dictionary uses the 214 Kangxi radicals in their full form (水, 人, 手…), but learners
/// know them from the shapes they take inside characters (氵, 亻, 扌…), and radical charts often
/// paste the Kangxi Radicals block (⽔ U+2F54) rather than the ideograph. Some variants are
/// radicals of their own in this dictionary (攵 beside 攴), so the form as typed comes first.
public enum RadicalForm {
    /// The forms to try, most literal first, without repeats.
    public static func candidates(_ text: String) -> [String] {
        let typed = text.trimmingWhiteSpace()
        let folded = compatibilityFolded(typed)
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

    /// The text with every character that Unicode's compatibility normalization (NFKC) turns
    /// into a radical of the dictionary, or into one of the variant shapes above, replaced by
    /// that form: the Kangxi Radicals block (⽔ U+2F54 → 水), and a few circled, parenthesized
    /// and compatibility ideographs. For what a radical lookup can match this is exactly NFKC,
    /// which only Foundation's NSString offers; the query side keeps to FoundationEssentials.
    static func compatibilityFolded(_ text: String) -> String {
        guard text.unicodeScalars.contains(where: { kangxi.contains($0.value) || compatibility[$0.value] != nil }) else {
            return text
        }
        var out = String.UnicodeScalarView()
        for scalar in text.unicodeScalars {
            if kangxi.contains(scalar.value) {
                out.append(kangxiIdeographs[Int(scalar.value - kangxi.lowerBound)])
            } else if let folded = compatibility[scalar.value] {
                out.append(folded)
            } else {
                out.append(scalar)
            }
        }
        return String(out)
    }

    private static let kangxi: ClosedRange<UInt32> = 0x2F00...0x2FD5

    /// U+2F00 ⼀ … U+2FD5 ⿕ in NFKC, in order: the 214 radicals as ordinary ideographs.
    private static let kangxiIdeographs = Array(
        "一丨丶丿乙亅二亠人儿入八冂冖冫几凵刀力勹匕匚匸十卜卩厂厶又口囗土士夂夊夕大女子宀寸小尢尸屮山巛工己巾干幺广廴廾弋弓彐彡彳心戈戶手支攴文斗斤方无日曰月木欠止歹殳毋比毛氏气水火爪父爻爿片牙牛犬玄玉瓜瓦甘生用田疋疒癶白皮皿目矛矢石示禸禾穴立竹米糸缶网羊羽老而耒耳聿肉臣自至臼舌舛舟艮色艸虍虫血行衣襾見角言谷豆豕豸貝赤走足身車辛辰辵邑酉釆里金長門阜隶隹雨靑非面革韋韭音頁風飛食首香馬骨高髟鬥鬯鬲鬼魚鳥鹵鹿麥麻黃黍黑黹黽鼎鼓鼠鼻齊齒龍龜龠"
            .unicodeScalars)

    /// The other characters NFKC folds into a radical or a variant shape (Unicode 14).
    private static let compatibility: [UInt32: Unicode.Scalar] = [
        0x3038: "十", 0x3192: "一", 0x3193: "二", 0x319A: "乙", 0x319F: "人", 0x3246: "文",
        0x3280: "一", 0x3281: "二", 0x3287: "八", 0x3289: "十", 0x328A: "月", 0x328B: "火",
        0x328C: "水", 0x328D: "木", 0x328E: "金", 0x328F: "土", 0x3290: "日", 0x329B: "女",
        0xF902: "車", 0xF907: "龜", 0xF908: "龜", 0xF90A: "金", 0xF934: "老", 0xF940: "鹿",
        0xF971: "辰", 0xF981: "女", 0xF98A: "力", 0xF9C4: "龍", 0xF9E9: "里", 0xF9F7: "立",
        0xFA08: "行", 0xFA0A: "見", 0xFA1E: "羽", 0xFA3C: "屮", 0xFA49: "爫", 0xFA5D: "艹",
        0xFA5E: "艹", 0xFA66: "辶", 0xFA95: "歹", 0xFACE: "龜", 0x1F210: "手", 0x1F214: "二",
        0x1F222: "生", 0x1F229: "一", 0x1F230: "走", 0x1F237: "月", 0x2F81D: "凵", 0x2F875: "尢",
        0x2F878: "屮", 0x2F890: "廾", 0x2F929: "王", 0x2F9C4: "衣", 0x2F9D2: "豕", 0x2FA15: "麻",
        0x2FA17: "黹", 0x2FA1C: "鼻",
    ]
}
