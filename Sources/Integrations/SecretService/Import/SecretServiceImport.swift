import Foundation
import KeychainClient
import ProgramIdentity

#if canImport(Glibc)
import Glibc
#endif

/// Copies every item of the Secret Service provider running on the session bus (gnome-keyring, KWallet,
/// KeePassXC) into Coffer's login collection, as `coffer-secret-service --import` does.
///
/// It is a client of that provider: it never takes `org.freedesktop.secrets`. Secrets travel in a
/// `dh-ietf1024-sha256-aes128-cbc-pkcs7` session when the provider offers one, else `plain`. A locked
/// collection is unlocked through the provider's own prompt; what stays locked is reported, not copied. Run
/// it in the program that serves the Secret Service (with cofferd, its items belong to that program's access
/// group).
public struct SecretServiceImport {
    /// Which programs will see the copies.
    public enum Owner: Sendable, Equatable {
        /// Every program, as in the provider read from (the copies have no owner).
        case everyProgram
        /// The unregistered program at this path (resolved: no symbolic link), as if it had stored them.
        case program(path: String)

        /// The access group recorded on the copies.
        var group: String? {
            switch self {
            case .everyProgram: nil
            case .program(let path): AppRegistry.unregisteredGroup(forPath: path)
            }
        }
    }

    private let client: any KeychainClient
    private let owner: Owner
    private let promptTimeout: Duration

    /// An import into `client`'s keychain, the copies owned as `owner` says; the person has `promptTimeout` to
    /// answer each unlock prompt of the provider read from.
    public init(client: any KeychainClient, owner: Owner = .everyProgram, promptTimeout: Duration = .seconds(300)) {
        self.client = client
        self.owner = owner
        self.promptTimeout = promptTimeout
    }

    /// Reads the provider on the session bus (or the bus at `busAddress`) and copies its items, calling
    /// `progress` after each item with the report so far.
    ///
    /// - Throws: ``SecretServiceError`` when there is no bus or no provider, when the provider is Coffer's own,
    ///   or when no session can be opened with it.
    public func run(
        busAddress: String? = nil, progress: (SecretServiceImportReport) -> Void = { _ in }
    ) throws(SecretServiceError) -> SecretServiceImportReport {
        let connection = try SourceConnection(address: busAddress)
        var report = SecretServiceImportReport()
        report.source = connection.ownerExecutable()
        let isItself =
            report.source.map { $0 == SourceConnection.executable(of: "/proc/self/exe") }
            ?? (connection.ownerCommandName() == SourceConnection.commandName(of: "/proc/self/comm"))
        if isItself {
            throw SecretServiceError(
                "\(SecretServiceServer.busName) is served by coffer-secret-service itself: stop it and start the provider to import from")
        }
        let provider = SourceProvider(connection: connection, promptTimeout: promptTimeout)
        let session: SourceSession
        do {
            session = try SourceSession.open(on: connection)
        } catch {
            throw SecretServiceError("cannot open a session with the provider: \(error)")
        }
        defer { session.close(on: connection) }
        report.algorithm = session.algorithmName
        let collections: [String]
        do {
            collections = try provider.collections()
        } catch {
            throw SecretServiceError("cannot list the provider's collections: \(error)")
        }
        let destination = ImportDestination(store: SecretItemStore(client: client, collection: SecretServiceProvider.loginCollection), owner: owner.group)
        for collection in collections {
            copy(collection, from: provider, session: session, into: destination, report: &report, progress: progress)
        }
        return report
    }

    /// Copies the items of one collection, unlocking it first when it is locked.
    private func copy(
        _ collection: String, from provider: SourceProvider, session: SourceSession, into destination: ImportDestination,
        report: inout SecretServiceImportReport, progress: (SecretServiceImportReport) -> Void
    ) {
        let items: [String]
        do {
            items = try provider.items(of: collection)
        } catch {
            report.failures.append(.init(path: collection, reason: "its items could not be listed: \(error)"))
            return
        }
        report.total += items.count
        // Why the collection's items cannot be read, when it is locked and stays locked.
        var lockedReason: String?
        do {
            if try provider.isLocked(collection, collection: true), try !provider.unlock(collection, collection: true) {
                lockedReason = "its collection is locked and the provider did not unlock it"
            }
        } catch {
            lockedReason = "its collection could not be unlocked: \(error)"
        }
        for path in items {
            if let lockedReason {
                report.notCopied += 1
                report.failures.append(.init(path: path, reason: lockedReason))
            } else {
                copy(path, from: provider, session: session, into: destination, report: &report)
            }
            progress(report)
        }
    }

    /// Copies one item.
    private func copy(
        _ path: String, from provider: SourceProvider, session: SourceSession, into destination: ImportDestination,
        report: inout SecretServiceImportReport
    ) {
        let item: SourceItem
        do {
            item = try provider.read(path, session: session)
        } catch {
            report.notCopied += 1
            report.failures.append(.init(path: path, reason: "it could not be read: \(error)"))
            return
        }
        do {
            switch try destination.copy(item) {
            case .copied: report.copied += 1
            case .alreadyPresent: report.alreadyPresent += 1
            }
        } catch {
            report.notCopied += 1
            report.failures.append(.init(path: path, reason: "Coffer did not store it: \(error.text)"))
        }
    }
}
