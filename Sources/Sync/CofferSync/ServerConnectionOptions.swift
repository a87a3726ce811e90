import ArgumentParser
import Foundation
import SyncServer

#if canImport(Glibc)
import Glibc
#endif

/// The server a command connects to, and the password it connects with.
struct ServerConnectionOptions: ParsableArguments {
    @Argument(help: ArgumentHelp("The database: postgresql://[user@][host][:port][/database][?host=/socket/folder].", valueName: "dsn"))
    var dsn: String

    @Flag(name: .customLong("password-stdin"), help: "Read the password from standard input (else $PGPASSWORD).")
    var passwordFromInput = false

    /// The endpoint and password, or a failure that names what is missing.
    func resolve() throws -> (ServerEndpoint, String) {
        let endpoint = try ServerEndpoint(dsn: dsn, defaultUser: Self.userName)
        if passwordFromInput {
            var password = String(decoding: FileHandle.standardInput.readDataToEndOfFile(), as: UTF8.self)
            if password.hasSuffix("\n") { password.removeLast() }
            if password.hasSuffix("\r") { password.removeLast() }
            return (endpoint, password)
        }
        if let password = ProcessInfo.processInfo.environment["PGPASSWORD"] { return (endpoint, password) }
        throw ValidationError("no password: give it on standard input with --password-stdin, or in PGPASSWORD")
    }

    /// Connects, runs `body`, and closes the connection however `body` ends.
    func withConnection<T: Sendable>(_ body: (SyncServerConnection, ServerEndpoint) async throws -> T) async throws -> T {
        let (endpoint, password) = try resolve()
        let connection = try await SyncServerConnection.connect(to: endpoint, password: password)
        do {
            let result = try await body(connection, endpoint)
            await connection.close()
            return result
        } catch {
            await connection.close()
            throw error
        }
    }

    /// The user running the command, PostgreSQL's default role name.
    private static var userName: String {
        if let entry = getpwuid(geteuid()), let name = entry.pointee.pw_name { return String(cString: name) }
        return "postgres"
    }
}
