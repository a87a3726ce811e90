import NIOCore
import NIOPosix
import Synchronization
import Testing

@testable import Daemon

/// Work a worker thread hands to the event loop runs while the loop runs, and is dropped once the
/// server closed the hand-off for the loop's shutdown (a task handed to a loop being torn down crashed
/// the daemon).
@Suite("Hand-offs to the event loop", .timeLimit(.minutes(10)))
struct LoopHandOffTests {
    @Test func aHandOffRunsOnTheLoopWhileItIsOpen() throws {
        let group = MultiThreadedEventLoopGroup(numberOfThreads: 1)
        defer { try? group.syncShutdownGracefully() }
        let loop = group.next()
        let handOff = LoopHandOff()
        let ran = loop.makePromise(of: Bool.self)
        handOff.execute(on: loop) { ran.succeed(loop.inEventLoop) }
        #expect(try ran.futureResult.wait() == true)
    }

    @Test func aHandOffAfterCloseIsDroppedEvenOnceTheLoopIsGone() throws {
        let group = MultiThreadedEventLoopGroup(numberOfThreads: 1)
        let loop = group.next()
        let handOff = LoopHandOff()
        let runs = Atomic<Int>(0)
        handOff.close()
        try group.syncShutdownGracefully()
        for _ in 0..<100 {
            handOff.execute(on: loop) { runs.add(1, ordering: .relaxed) }
        }
        #expect(runs.load(ordering: .relaxed) == 0)
    }
}
