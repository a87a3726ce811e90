import ArgumentParser

/// PCRs on the command line: numbers 0 to 23 separated by commas (`7`, `0,2,7`), optionally after `sha256:`, or
/// `none` for the chip alone.
struct PCRListArgument: ExpressibleByArgument {
    let pcrs: [Int]

    init?(argument: String) {
        var text = Substring(argument)
        if text.hasPrefix("sha256:") { text = text.dropFirst("sha256:".count) }
        if text == "none" {
            pcrs = []
            return
        }
        var found: Set<Int> = []
        for part in text.split(separator: ",", omittingEmptySubsequences: false) {
            guard let number = Int(part), (0...23).contains(number) else { return nil }
            found.insert(number)
        }
        pcrs = found.sorted()
    }

    static var defaultCompletionKind: CompletionKind { .list(["none", "7", "0,7"]) }
}
