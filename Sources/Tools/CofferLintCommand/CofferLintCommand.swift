import ArgumentParser
import CofferLint
import Foundation

/// `coffer-lint [PATH…]`: the keychain pitfalls in Swift files, compiler-style, so editors and CI annotate them.
@main
struct CofferLintCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "coffer-lint",
        abstract: "Find the pitfalls of Apple's SecItem calls in Swift source: query dictionaries followed to the calls that use them.",
        discussion: """
            Each finding is printed as the compiler prints one (file:line:col: error|warning: [rule] message). \
            The exit status is 2 when an error was found, 1 when only warnings were, 0 otherwise.
            """)

    @Argument(help: "Swift files, or folders searched for them (default: the current folder).")
    var paths: [String] = []

    /// How the findings are written.
    enum Format: String, ExpressibleByArgument, CaseIterable {
        case compiler, json
    }

    @Option(help: "compiler (file:line:col: severity: [rule] message) or json.")
    var format: Format = .compiler

    func run() throws {
        var findings: [LintDiagnostic] = []
        for file in try SwiftFiles.find(in: paths.isEmpty ? ["."] : paths) {
            guard let source = try? String(contentsOfFile: file, encoding: .utf8) else {
                throw ValidationError("cannot read \(file) as UTF-8 text")
            }
            findings += CofferLinter.lint(source: source, path: file)
        }
        switch format {
        case .compiler: for finding in findings { print(finding.compilerStyle) }
        case .json: print(JSONReport.render(findings))
        }
        let worst = findings.map(\.rule.severity).max()
        if let worst { throw ExitCode(worst == .error ? 2 : 1) }
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
