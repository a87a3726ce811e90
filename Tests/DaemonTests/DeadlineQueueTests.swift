import Testing

@testable import Daemon

/// The watcher's time-out checks come up earliest first, only once due, and those of closed connections
/// can be dropped in one pass.
@Suite("Deadline queue")
struct DeadlineQueueTests {
    @Test func checksComeUpEarliestFirstAndOnlyWhenDue() {
        var queue = DeadlineQueue()
        let dues: [UInt64] = [50, 10, 40, 10, 30, 90, 20, 70, 60, 80]
        for (index, due) in dues.enumerated() { queue.insert(.init(due: due, connection: UInt64(index))) }
        #expect(queue.count == dues.count)
        #expect(queue.earliest?.due == 10)
        #expect(queue.popDue(at: 9) == nil)
        var popped: [UInt64] = []
        while let entry = queue.popDue(at: 55) { popped.append(entry.due) }
        #expect(popped == [10, 10, 20, 30, 40, 50])
        #expect(queue.earliest?.due == 60)
        queue.removeAll { $0.connection == 8 }  // the check at 60
        while let entry = queue.popDue(at: .max) { popped.append(entry.due) }
        #expect(popped == [10, 10, 20, 30, 40, 50, 70, 80, 90])
        #expect(queue.isEmpty)
    }
}
