import Foundation
import KeychainClient
import KeychainOperations
import ProgramIdentity

/// The access groups a program would have as the agent's caller, named by its path: what `coffer ssh-agent limit
/// --program PATH` stores on a key, and how `coffer ssh-agent limits` names the groups back.
public struct AgentProgramGroups: Sendable {
    private let registry: AppRegistry

    /// The registry `client` lists (empty for an embedded keychain).
    public init(client: any KeychainClient) {
        registry = ListedPrograms((try? client.sendBlocking(.appsList).appsResult()) ?? []).snapshot
    }

    /// The program at `path` (symbolic links resolved, as `/proc/PID/exe` shows it) and its access groups: a
    /// registered program's groups, else the group of an unregistered program of that path. Nil when nothing is at
    /// `path`.
    public func groups(ofProgramAt path: String) -> (path: String, groups: [String])? {
        guard let resolved = realpath(path, nil) else { return nil }
        defer { free(resolved) }
        let program = String(cString: resolved)
        if let app = registry.entry(path: program) { return (program, app.accessGroups) }
        return (program, [AppRegistry.unregisteredGroup(forPath: program)])
    }

    /// A name for `group`: the registered program it belongs to, or the program at one of `paths` (symbolic links
    /// resolved) whose unregistered group it is; nil when neither is known.
    public func program(of group: String, amongPaths paths: [String] = []) -> String? {
        if let app = registry.apps.first(where: { $0.accessGroups.contains(group) }) { return app.path }
        return paths.lazy.compactMap(groups(ofProgramAt:)).first { $0.groups.contains(group) }?.path
    }
}
