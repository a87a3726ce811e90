import CofferTLS
import Logging
import NIOSSL
import PostgresNIO
import Synchronization

/// One connection to a sync server's database (postgres-nio), as the endpoint's role.
///
/// Nothing is logged: postgres-nio's logger is a no-op, so no statement, bound value or password reaches a log.
public final class SyncServerConnection: Sendable {
    let connection: PostgresConnection
    let logger = Logger(label: "coffer.sync-server", factory: { _ in SwiftLogNoOpLogHandler() })

    private init(connection: PostgresConnection) {
        self.connection = connection
    }

    /// Connects to `endpoint` with `password` (SCRAM-SHA-256 or whatever the server asks for), over TLS when the
    /// endpoint says so: App Transport Security's defaults, the server's chain and name verified before the password
    /// is used.
    public static func connect(to endpoint: ServerEndpoint, password: String) async throws(SyncServerError) -> SyncServerConnection {
        let configuration: PostgresConnection.Configuration
        switch endpoint.address {
        case .unixSocket(let path):
            configuration = .init(unixSocketPath: path, username: endpoint.username, password: password, database: endpoint.database)
        case .tcp(let host, let port):
            configuration = .init(
                host: host, port: port, username: endpoint.username, password: password, database: endpoint.database,
                tls: try endpoint.tls.map(Self.require) ?? .disable)
        }
        do {
            let connection = try await PostgresConnection.connect(
                configuration: configuration, id: 1, logger: Logger(label: "coffer.sync-server", factory: { _ in SwiftLogNoOpLogHandler() }))
            return SyncServerConnection(connection: connection)
        } catch {
            throw Self.failure(error)
        }
    }

    /// postgres-nio's TLS setting for `tls`: required, with CofferTLS's client configuration trusting the endpoint's
    /// authorities.
    private static func require(_ tls: ServerEndpoint.TLS) throws(SyncServerError) -> PostgresConnection.Configuration.TLS {
        var configuration = AppTransportSecurity.clientConfiguration()
        if let file = tls.rootCertificatesFile { configuration.trustRoots = .file(file) }
        do {
            return .require(try NIOSSLContext(configuration: configuration))
        } catch {
            throw .connection("cannot set up TLS with \(tls.rootCertificatesFile ?? "the system's authorities"): \(error)")
        }
    }

    /// Closes the connection.
    public func close() async {
        try? await connection.close()
    }

    /// Runs `body` in one transaction: committed when it returns, rolled back when it throws.
    @discardableResult
    func transaction<T: Sendable>(_ body: @escaping @Sendable (PostgresConnection) async throws -> T) async throws(SyncServerError) -> T {
        try await transaction(body, recovering: { _ in nil })
    }

    /// Runs `body` in one transaction, as ``transaction(_:)``; an error `recover` maps to a value rolls the transaction
    /// back and returns that value instead of throwing.
    func transaction<T: Sendable>(
        _ body: @escaping @Sendable (PostgresConnection) async throws -> T, recovering recover: (any Error) -> T?
    ) async throws(SyncServerError) -> T {
        try checkOpen()
        do {
            let (connection, logger) = (connection, logger)
            return try await untilClosed { try await connection.withTransaction(logger: logger) { connection in try await body(connection) } }
        } catch {
            let cause = (error as? PostgresTransactionError)?.closureError ?? error
            if let value = recover(cause) { return value }
            throw Self.failure(error)
        }
    }

    /// Runs `operation`, or throws as soon as the connection closes: postgres-nio 1.33 can leave a query sent as the
    /// connection closes waiting forever, and a sync run must end when its server goes away.
    func untilClosed<T: Sendable>(_ operation: @escaping @Sendable () async throws -> T) async throws -> T {
        let gate = ResumeOnce<T>()
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                gate.arm(continuation)
                let work = Task {
                    do {
                        gate.resume(.success(try await operation()))
                    } catch {
                        gate.resume(.failure(error))
                    }
                }
                connection.closeFuture.whenComplete { _ in
                    gate.resume(.failure(SyncServerError.connection("the server closed the connection")))
                    work.cancel()
                }
            }
        } onCancel: {
            gate.resume(.failure(CancellationError()))
        }
    }

    /// Throws when the server closed the connection (postgres-nio 1.33 would wait forever for an answer to a query
    /// sent on it).
    func checkOpen() throws(SyncServerError) {
        if connection.isClosed { throw .connection("the server closed the connection") }
    }

    /// Runs one statement whose text is built here, from constants and checked identifiers only.
    func execute(_ sql: String, on connection: PostgresConnection) async throws {
        try await connection.query(PostgresQuery(unsafeSQL: sql), logger: logger)
    }

    /// The ``SyncServerError`` of what postgres-nio threw: the server's SQLSTATE and message when it answered,
    /// else why the connection failed. Never the statement or its bound values.
    static func failure(_ error: any Error) -> SyncServerError {
        if let known = error as? SyncServerError { return known }
        if let transaction = error as? PostgresTransactionError {
            return failure(transaction.closureError ?? transaction.beginError ?? transaction.commitError ?? transaction.rollbackError ?? error)
        }
        if let tls = error as? NIOSSLError { return .connection("TLS failed: \(tls)") }
        guard let psql = error as? PSQLError else { return .connection(String(describing: type(of: error))) }
        if let underlying = psql.underlying as? NIOSSLError { return .connection("TLS failed: \(underlying)") }
        if psql.code == .sslUnsupported { return .connection("the server does not offer TLS") }
        if let state = psql.serverInfo?[.sqlState] {
            let message = psql.serverInfo?[.message] ?? "no message"
            if state == "42501" { return .notPermitted(message) }
            return .server(sqlState: state, message: message)
        }
        return .connection("\(psql.code)")
    }
}

/// Resumes a continuation once, with whichever outcome comes first.
private final class ResumeOnce<T: Sendable>: Sendable {
    private let state = Mutex<(continuation: CheckedContinuation<T, any Error>?, early: Result<T, any Error>?, done: Bool)>((nil, nil, false))

    func arm(_ continuation: CheckedContinuation<T, any Error>) {
        let early: Result<T, any Error>? = state.withLock { state in
            if let early = state.early {
                state.done = true
                return early
            }
            state.continuation = continuation
            return nil
        }
        if let early { continuation.resume(with: early) }
    }

    func resume(_ result: Result<T, any Error>) {
        let continuation: CheckedContinuation<T, any Error>? = state.withLock { state in
            guard !state.done else { return nil }
            guard let continuation = state.continuation else {
                if state.early == nil { state.early = result }
                return nil
            }
            state.done = true
            state.continuation = nil
            return continuation
        }
        continuation?.resume(with: result)
    }
}
