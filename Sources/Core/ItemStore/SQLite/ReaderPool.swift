import Foundation
import Synchronization

/// The reader connections of one store: idle ones are reused, and a thread that finds none idle opens
/// its own, so reads never wait for each other. At most `maximumIdle` stay open between reads.
final class ReaderPool: Sendable {
    private let path: String
    private let busyTimeout: TimeInterval
    private let maximumIdle: Int
    /// How each connection opens the file.
    let mode: ReaderConnection.OpenMode
    private let idle = Mutex<[ReaderConnection]>([])

    init(path: String, busyTimeout: TimeInterval, maximumIdle: Int, mode: ReaderConnection.OpenMode = .readWrite) {
        self.path = path
        self.mode = mode
        self.busyTimeout = busyTimeout
        self.maximumIdle = maximumIdle
    }

    /// Runs `body` with a connection that no other thread uses meanwhile.
    func withConnection<T>(_ body: (ReaderConnection) throws -> T) throws -> T {
        let connection = try idle.withLock { $0.popLast() } ?? ReaderConnection(path: path, busyTimeout: busyTimeout, mode: mode)
        defer {
            idle.withLock { connections in
                if connections.count < maximumIdle { connections.append(connection) }
            }
        }
        return try body(connection)
    }
}
