import ProgramIdentity

/// The access group the daemon gives a program it does not know, by path: what `--keep-items-of` names.
enum UnregisteredProgramGroup {
    static func of(path: String) -> String { AppRegistry.unregisteredGroup(forPath: path) }
}
