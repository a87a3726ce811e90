import Foundation
import PackagePlugin

/// `swift package coffer-lint [--target NAME…] [coffer-lint options]`: lints the Swift sources of the package's
/// targets (all of them, or those named) with `coffer-lint`, from the package's folder so its
/// `.coffer-lint.json` applies. Fails when `coffer-lint` finds anything.
@main
struct CofferLintPlugin: CommandPlugin {
    func performCommand(context: PluginContext, arguments: [String]) async throws {
        var extractor = ArgumentExtractor(arguments)
        let names = extractor.extractOption(named: "target")
        let targets = names.isEmpty ? context.package.targets : try context.package.targets(named: names)
        let root = context.package.directoryURL.standardizedFileURL.path
        var files: [String] = []
        for target in targets {
            guard let module = target.sourceModule else { continue }
            for file in module.sourceFiles(withSuffix: "swift") where file.type == .source {
                let path = file.url.standardizedFileURL.path
                files.append(path.hasPrefix(root + "/") ? String(path.dropFirst(root.count + 1)) : path)
            }
        }
        guard !files.isEmpty else {
            Diagnostics.remark("coffer-lint: no Swift sources in the targets chosen")
            return
        }
        let tool = try context.tool(named: "coffer-lint")
        let process = Process()
        process.executableURL = tool.url
        process.arguments = extractor.remainingArguments + files.sorted()
        process.currentDirectoryURL = context.package.directoryURL
        try process.run()
        process.waitUntilExit()
        guard process.terminationReason == .exit, process.terminationStatus == 0 else {
            throw LintFailed(status: process.terminationStatus)
        }
    }
}

/// `coffer-lint` found pitfalls (status 1: warnings, 2: errors) or could not run.
struct LintFailed: Error, CustomStringConvertible {
    let status: Int32
    var description: String {
        switch status {
        case 1: "coffer-lint found warnings"
        case 2: "coffer-lint found errors"
        default: "coffer-lint failed (status \(status))"
        }
    }
}
