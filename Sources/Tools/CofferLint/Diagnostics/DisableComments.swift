/// The `// coffer-lint:disable RULE[, RULE…][: why]` comments of a file: on a finding's line or the line before,
/// they silence those rules there; `// coffer-lint:disable-file RULE[, RULE…][: why]` silences them in the whole
/// file. `all` stands for every rule. Files that send bad dictionaries on purpose (tests of Apple's behaviour)
/// carry them.
struct DisableComments {
    private var byLine: [Int: Set<String>] = [:]
    private var wholeFile: Set<String> = []

    init(source: String) {
        for (index, line) in source.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            guard let marker = line.range(of: "coffer-lint:disable") else { continue }
            let rest = line[marker.upperBound...]
            let fileWide = rest.hasPrefix("-file")
            // The rules run up to the colon that starts the reason.
            let list = rest.dropFirst(fileWide ? 5 : 0).prefix { $0 != ":" }
            let names = list.split(whereSeparator: { $0 == "," || $0 == " " || $0 == "\t" }).map(String.init)
            if fileWide {
                wholeFile.formUnion(names)
            } else {
                byLine[index + 1, default: []].formUnion(names)
            }
        }
    }

    /// Whether `diagnostic` is silenced.
    func silences(_ diagnostic: LintDiagnostic) -> Bool {
        let names = wholeFile.union(byLine[diagnostic.line] ?? []).union(byLine[diagnostic.line - 1] ?? [])
        return names.contains("all") || names.contains(diagnostic.rule.rawValue)
    }
}
