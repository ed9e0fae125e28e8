extension String {
    /// Without the blanks (space, tab, CR, LF) around it: key lists read from a file or the
    /// environment may carry a trailing newline or spaces after commas.
    public func trimmingASCIIWhitespace() -> String {
        let isBlank: (Character) -> Bool = { $0 == " " || $0 == "\t" || $0 == "\n" || $0 == "\r" || $0 == "\r\n" }
        guard let first = firstIndex(where: { !isBlank($0) }), let last = lastIndex(where: { !isBlank($0) }) else {
            return ""
        }
        return String(self[first...last])
    }
}
