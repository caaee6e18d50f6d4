/// Characters from the app (names, labels, keys) written so that a line
/// shows them without acting on them: each chosen scalar becomes `\u{1B}`.
package enum EscapedText {
    /// `text` with every scalar `shouldEscape` picks written as `\u{…}`.
    package static func escaping(_ text: String, where shouldEscape: (Unicode.Scalar) -> Bool) -> String {
        guard text.unicodeScalars.contains(where: shouldEscape) else { return text }
        var result = String.UnicodeScalarView()
        for scalar in text.unicodeScalars {
            if shouldEscape(scalar) {
                result.append(contentsOf: "\\u{\(String(scalar.value, radix: 16, uppercase: true))}".unicodeScalars)
            } else {
                result.append(scalar)
            }
        }
        return String(result)
    }

    /// `line` with its line breaks escaped: one finding or diagnostic, one line.
    static func oneLine(_ line: String) -> String {
        escaping(line) { scalar in
            switch scalar.value {
            case 0x0A...0x0D, 0x85, 0x2028, 0x2029: true
            default: false
            }
        }
    }
}
