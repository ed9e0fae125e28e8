/// A command line after parsing: positionals, `--option value` (or `--option=value`, repeatable)
/// and `--flag`. Anything not declared by the command is a usage error.
public struct Arguments {
    public var positionals: [String] = []
    public var options: [String: [String]] = [:]
    public var flags: Set<String> = []

    public var wantsHelp: Bool { flags.contains("help") }

    public static func parse(_ words: ArraySlice<String>, options declared: Set<String> = [], flags declaredFlags: Set<String> = [])
        throws(CLIError) -> Arguments {
        var parsed = Arguments()
        var rest = words
        while let word = rest.popFirst() {
            if word == "-h" || word == "--help" {
                parsed.flags.insert("help")
            } else if word == "--" {
                parsed.positionals += rest
                rest = []
            } else if word.hasPrefix("--") {
                let body = word.dropFirst(2)
                let name = String(body.prefix { $0 != "=" })
                let inline = body.contains("=") ? String(body.drop { $0 != "=" }.dropFirst()) : nil
                if declared.contains(name) {
                    guard let value = inline ?? rest.popFirst() else { throw .usage("--\(name) needs a value") }
                    parsed.options[name, default: []].append(value)
                } else if declaredFlags.contains(name), inline == nil {
                    parsed.flags.insert(name)
                } else {
                    throw .usage("unknown option \(word)")
                }
            } else if word.hasPrefix("-") && word.count > 1 {
                throw .usage("unknown option \(word)")
            } else {
                parsed.positionals.append(word)
            }
        }
        return parsed
    }

    /// The single value of a required option.
    public func required(_ name: String) throws(CLIError) -> String {
        guard let value = try optional(name) else { throw .usage("--\(name) is required") }
        return value
    }

    public func optional(_ name: String) throws(CLIError) -> String? {
        guard let values = options[name] else { return nil }
        guard values.count == 1 else { throw .usage("--\(name) is given more than once") }
        return values[0]
    }

    public func expectPositionals(_ count: Int, _ what: String) throws(CLIError) {
        guard positionals.count == count else {
            throw .usage(positionals.count < count ? "missing \(what)" : "unexpected argument \(positionals[count])")
        }
    }
}
