import ArgumentParser
import Coffer
import Foundation

/// `coffer file mv SOURCE DESTINATION`: moves a protected file, which opens only at the path it was written for.
struct FileMoveCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "mv", abstract: "Move a protected file (its header is bound to its path; plain mv leaves it unreadable).",
        discussion: """
            The file's header is written again for the new path and its encrypted content copied as it is; the \
            source is removed once the moved file is durable. A DESTINATION that is a folder receives the file under \
            its own name. The file's class key must be available (a complete file needs the keychain unlocked).
            """)

    @Argument(help: "The protected file.")
    var source: String
    @Argument(help: "Its new path, or a folder to move it into.")
    var destination: String

    func run() throws {
        try FileCalls.reporting {
            var target = URL(fileURLWithPath: destination)
            var isFolder: ObjCBool = false
            if FileManager.default.fileExists(atPath: target.path, isDirectory: &isFolder), isFolder.boolValue {
                target.appendPathComponent(URL(fileURLWithPath: source).lastPathComponent)
            }
            try ProtectedFile.move(from: URL(fileURLWithPath: source), to: target, keychain: FileCalls.keychain)
        }
    }
}
