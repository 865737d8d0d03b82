extension String {
    /// Without leading and trailing white space, trimmed by scalar: Foundation's
    /// `trimmingCharacters` copies the whole text through NSString.
    var trimmingWhitespace: String {
        let scalars = unicodeScalars
        guard let first = scalars.firstIndex(where: { !$0.properties.isWhitespace }),
              let last = scalars.lastIndex(where: { !$0.properties.isWhitespace }) else { return "" }
        return String(scalars[first...last])
    }
}
