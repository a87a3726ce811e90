import Foundation

/// A package's `.coffer-lint.json`: rules to leave off, everywhere or in some paths, and paths not to read.
///
/// ```json
/// {
///     "disable": ["status-ignored"],
///     "disableIn": { "hard-coded-secret": ["Tests", "Benchmarks"] },
///     "exclude": ["Tests/Fixtures/**", "Sources/Generated/*.swift"]
/// }
/// ```
/// Paths are relative to the folder the file is in; `*` stands for any part of one path component, `**` for any
/// number of components, and a folder stands for everything in it.
public struct LintConfiguration: Sendable, Equatable {
    /// The rules left off.
    public var disabled: Set<LintRule>
    /// Rules left off in the paths their patterns match.
    public var disabledIn: [LintRule: [String]] = [:]
    /// The patterns of paths left out, relative to ``root``.
    public var excluded: [String]
    /// The folder the patterns are relative to.
    public var root: String

    /// The name of the file `coffer lint` looks for in the folder it runs in.
    public static let fileName = ".coffer-lint.json"

    /// A configuration.
    public init(disabled: Set<LintRule> = [], excluded: [String] = [], root: String = ".") {
        self.disabled = disabled
        self.excluded = excluded
        self.root = root
    }

    /// What a configuration file can be wrong about.
    public struct Problem: Error, CustomStringConvertible, Sendable {
        public let description: String
    }

    /// Reads the configuration file at `path`.
    public static func load(path: String) throws(Problem) -> LintConfiguration {
        guard let data = FileManager.default.contents(atPath: path) else { throw Problem(description: "\(path): cannot be read") }
        guard let object = try? JSONSerialization.jsonObject(with: data), let fields = object as? [String: Any] else {
            throw Problem(description: "\(path): not a JSON object")
        }
        for key in fields.keys where !["disable", "disableIn", "exclude"].contains(key) {
            throw Problem(description: "\(path): unknown setting \"\(key)\" (there are \"disable\", \"disableIn\" and \"exclude\")")
        }
        var configuration = LintConfiguration(root: (path as NSString).deletingLastPathComponent)
        if configuration.root.isEmpty { configuration.root = "." }
        if let disable = fields["disable"] {
            guard let names = disable as? [String] else { throw Problem(description: "\(path): \"disable\" must be a list of rule names") }
            for name in names {
                guard let rule = LintRule(rawValue: name) else { throw Problem(description: "\(path): \"\(name)\" is not a rule (coffer lint --list-rules)") }
                configuration.disabled.insert(rule)
            }
        }
        if let disableIn = fields["disableIn"] {
            guard let table = disableIn as? [String: Any] else {
                throw Problem(description: "\(path): \"disableIn\" must map rule names to lists of paths")
            }
            for (name, patterns) in table {
                guard let rule = LintRule(rawValue: name) else { throw Problem(description: "\(path): \"\(name)\" is not a rule (coffer lint --list-rules)") }
                guard let list = patterns as? [String] else { throw Problem(description: "\(path): the paths of \"\(name)\" must be a list") }
                configuration.disabledIn[rule] = list
            }
        }
        if let exclude = fields["exclude"] {
            guard let patterns = exclude as? [String] else { throw Problem(description: "\(path): \"exclude\" must be a list of paths") }
            configuration.excluded = patterns
        }
        return configuration
    }

    /// Whether the file at `path` is left out.
    public func excludes(path: String) -> Bool { matches(path, excluded) }

    /// Whether the configuration turns `diagnostic`'s rule off, everywhere or where it is.
    public func silences(_ diagnostic: LintDiagnostic) -> Bool {
        disabled.contains(diagnostic.rule) || matches(diagnostic.path, disabledIn[diagnostic.rule] ?? [])
    }

    private func matches(_ path: String, _ patterns: [String]) -> Bool {
        let relative = Self.relative(path, to: root)
        let components = relative.split(separator: "/").map(String.init)
        return patterns.contains { pattern in
            let parts = pattern.split(separator: "/").map(String.init)
            // A folder stands for what is in it.
            return Self.matches(parts, components) || Self.matches(parts + ["**"], components)
        }
    }

    private static func relative(_ path: String, to root: String) -> String {
        let standardPath = (path as NSString).standardizingPath
        let standardRoot = (root as NSString).standardizingPath
        if standardRoot == "." || standardRoot.isEmpty { return standardPath.hasPrefix("./") ? String(standardPath.dropFirst(2)) : standardPath }
        if standardPath.hasPrefix(standardRoot + "/") { return String(standardPath.dropFirst(standardRoot.count + 1)) }
        return standardPath
    }

    private static func matches(_ pattern: [String], _ components: [String]) -> Bool {
        guard let first = pattern.first else { return components.isEmpty }
        if first == "**" {
            return (0...components.count).contains { matches(Array(pattern.dropFirst()), Array(components.dropFirst($0))) }
        }
        guard let component = components.first, fnmatch(first, component, 0) == 0 else { return false }
        return matches(Array(pattern.dropFirst()), Array(components.dropFirst()))
    }
}
