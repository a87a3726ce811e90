import Foundation
import Synchronization

/// Who wants to know when a write of this store commits (sync, to push what changed). Observers run on the writer's
/// thread right after the commit, so they must only signal, never work.
final class CommitObservers: Sendable {
    private let observers = Mutex<[UUID: @Sendable () -> Void]>([:])

    func add(_ observer: @escaping @Sendable () -> Void) -> UUID {
        let id = UUID()
        observers.withLock { $0[id] = observer }
        return id
    }

    func remove(_ id: UUID) { _ = observers.withLock { $0.removeValue(forKey: id) } }

    func notify() {
        let current = observers.withLock { $0.isEmpty ? [] : Array($0.values) }
        for observer in current { observer() }
    }
}

extension ItemStore {
    /// A signal after each write this store commits that changed a row (not other processes' writes), until the
    /// stream's consumer stops.
    /// Signals coalesce: a slow consumer sees one for many commits.
    public func commits() -> AsyncStream<Void> {
        let (stream, continuation) = AsyncStream.makeStream(of: Void.self, bufferingPolicy: .bufferingNewest(1))
        let id = commitObservers.add { continuation.yield() }
        continuation.onTermination = { [commitObservers] _ in commitObservers.remove(id) }
        return stream
    }
}
