import ArgumentParser
import CofferLint
import Foundation

/// `coffer-lint [PATH…]`: the keychain pitfalls in Swift files, compiler-style, so editors and CI annotate them.
@main
struct CofferLintCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "coffer-lint",
        abstract: "Find the pitfalls of Apple's keychain calls in Swift source: query dictionaries followed to the calls that use them.",
        discussion: """
            Each finding is printed as the compiler prints one (file:line:col: error|warning: [rule] message). \
            The exit status is 2 when an error was found, 1 when only warnings were, 0 otherwise. \
            A .coffer-lint.json in the current folder (or --config) disables rules and excludes paths; \
            a `// coffer-lint:disable RULE` comment silences a rule on its line and the next.
            """,
        version: "coffer-lint \(CofferLinter.version)")

    @Argument(help: "Swift files, or folders searched for them (default: the current folder).")
    var paths: [String] = []

    /// How the findings are written.
    enum Format: String, ExpressibleByArgument, CaseIterable {
        case compiler, json, sarif
    }

    @Option(help: "compiler (file:line:col: severity: [rule] message), json, or sarif (SARIF 2.1.0, for code scanning).")
    var format: Format = .compiler

    @Option(help: "A configuration file (default: .coffer-lint.json in the current folder, when there is one).")
    var config: String?

    @Flag(help: "List the rules, with their severity and what they find, and exit.")
    var listRules = false

    @Option(help: "Explain a rule: why it matters and where Apple describes it.")
    var explain: String?

    func run() throws {
        if listRules {
            for rule in LintRule.allCases { print("\(rule.rawValue) (\(rule.severity.rawValue)): \(rule.summary)") }
            return
        }
        if let explain {
            guard let rule = LintRule(rawValue: explain) else { throw ValidationError("\(explain) is not a rule (see --list-rules)") }
            print("\(rule.rawValue) (\(rule.severity.rawValue)): \(rule.summary)\n\n\(rule.reason)\n\nSee \(rule.documentation)")
            return
        }
        let configuration = try loadConfiguration()
        var inputs: [CofferLinter.Input] = []
        for file in try SwiftFiles.find(in: paths.isEmpty ? ["."] : paths) where !configuration.excludes(path: file) {
            guard let source = try? String(contentsOfFile: file, encoding: .utf8) else {
                throw ValidationError("cannot read \(file) as UTF-8 text")
            }
            inputs.append(CofferLinter.Input(path: file, source: source))
        }
        let findings = CofferLinter.lint(inputs, configuration: configuration)
        switch format {
        case .compiler: for finding in findings { print(finding.compilerStyle) }
        case .json: print(JSONReport.render(findings))
        case .sarif: print(SARIFReport.render(findings, version: CofferLinter.version))
        }
        if let worst = findings.map(\.rule.severity).max() { throw ExitCode(worst == .error ? 2 : 1) }
    }

    private func loadConfiguration() throws -> LintConfiguration {
        let path = config ?? LintConfiguration.fileName
        guard config != nil || FileManager.default.fileExists(atPath: path) else { return LintConfiguration() }
        do {
            return try LintConfiguration.load(path: path)
        } catch {
            throw ValidationError(error.description)
        }
    }
}

/// The Swift files `paths` name: files as given, folders searched (hidden folders and `.build*` left out).
enum SwiftFiles {
    static func find(in paths: [String]) throws -> [String] {
        var files: [String] = []
        for path in paths {
            var isFolder: ObjCBool = false
            guard FileManager.default.fileExists(atPath: path, isDirectory: &isFolder) else {
                throw ValidationError("\(path): no such file or folder")
            }
            guard isFolder.boolValue else {
                files.append(path)
                continue
            }
            let enumerator = FileManager.default.enumerator(atPath: path)
            while let relative = enumerator?.nextObject() as? String {
                let name = (relative as NSString).lastPathComponent
                if name.hasPrefix(".") {
                    enumerator?.skipDescendants()
                    continue
                }
                if relative.hasSuffix(".swift") { files.append((path as NSString).appendingPathComponent(relative)) }
            }
        }
        return files.sorted()
    }
}
