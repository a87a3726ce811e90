/// The time-out checks the watcher has to make, earliest first: a binary min-heap of (when, connection
/// number). A connection's earlier check supersedes a later one it already scheduled; the superseded entry
/// stays in the heap and is ignored when it comes up (``Connection/checkTimeOuts(scheduled:now:)``).
struct DeadlineQueue {
    /// One scheduled check.
    struct Entry: Equatable {
        /// When (``MonotonicClock`` nanoseconds).
        let due: UInt64
        /// The connection's number.
        let connection: UInt64
    }

    private var heap: [Entry] = []

    /// Whether no check is scheduled.
    var isEmpty: Bool { heap.isEmpty }

    /// How many checks are scheduled, superseded ones included.
    var count: Int { heap.count }

    /// The earliest check, if any.
    var earliest: Entry? { heap.first }

    /// Schedules a check.
    mutating func insert(_ entry: Entry) {
        heap.append(entry)
        var child = heap.count - 1
        while child > 0 {
            let parent = (child - 1) / 2
            guard heap[child].due < heap[parent].due else { break }
            heap.swapAt(child, parent)
            child = parent
        }
    }

    /// Drops the checks `shouldBeRemoved` picks (those of closed connections).
    mutating func removeAll(where shouldBeRemoved: (Entry) -> Bool) {
        let kept = heap.filter { !shouldBeRemoved($0) }
        heap = []
        heap.reserveCapacity(kept.count)
        for entry in kept { insert(entry) }
    }

    /// Removes and returns the earliest check if it is due at `now`.
    mutating func popDue(at now: UInt64) -> Entry? {
        guard let first = heap.first, first.due <= now else { return nil }
        let last = heap.removeLast()
        guard !heap.isEmpty else { return first }
        heap[0] = last
        var parent = 0
        while true {
            let left = 2 * parent + 1
            let right = left + 1
            var smallest = parent
            if left < heap.count, heap[left].due < heap[smallest].due { smallest = left }
            if right < heap.count, heap[right].due < heap[smallest].due { smallest = right }
            guard smallest != parent else { break }
            heap.swapAt(parent, smallest)
            parent = smallest
        }
        return first
    }
}
