import ArgumentParser

/// `coffer file protect | unprotect | cat | class | mv`: files protected like Apple's Data Protection.
struct FileCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "file",
        abstract: "Protect files with the keychain's file protection classes (Apple's Data Protection).",
        discussion: """
            A protected file has its own key, wrapped under the keychain's class key of its protection \
            class, and its content encrypted and authenticated in 64 KiB chunks. Classes: complete (readable \
            only while the keychain is unlocked), complete-unless-open (can be created while locked, read \
            only once unlocked), complete-until-first-user-authentication (from the first unlock on, the \
            default), none (always). A changed, cut or reordered file is refused, never printed, and so is a \
            protected file copied over another (each opens only at the path it was written for: move one \
            with `coffer file mv`). Large files show their progress on standard error when it is a terminal.
            """,
        subcommands: [
            FileProtectCommand.self, FileUnprotectCommand.self, FileCatCommand.self, FileClassCommand.self, FileMoveCommand.self,
        ])
}
