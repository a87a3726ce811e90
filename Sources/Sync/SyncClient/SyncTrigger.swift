import Foundation
import Synchronization

/// Asks a ``BackgroundSync`` for a run now (`coffer sync now` through the daemon): the run starts at once, cutting
/// short a wait for the next poll or the back-off after a failure.
public final class SyncTrigger: Sendable {
    private let listeners = Mutex<[UUID: AsyncStream<Void>.Continuation]>([:])

    /// A trigger no one listens to yet.
    public init() {}

    /// Asks for a run.
    public func fire() {
        for listener in listeners.withLock({ Array($0.values) }) { listener.yield() }
    }

    /// A signal each time ``fire()`` is called (coalesced), until the stream's consumer stops.
    func requests() -> AsyncStream<Void> {
        let (stream, continuation) = AsyncStream.makeStream(of: Void.self, bufferingPolicy: .bufferingNewest(1))
        let id = UUID()
        listeners.withLock { $0[id] = continuation }
        continuation.onTermination = { [weak self] _ in _ = self?.listeners.withLock { $0.removeValue(forKey: id) } }
        return stream
    }
}
