import CofferTLS
import Foundation
import NIOCore
import NIOPosix
import NIOSSL
import NIOTLS
import Security
import Synchronization

/// What a test records, from any thread: verifier outcomes, handshake results.
final class Recorder<Value: Sendable>: Sendable {
    private let values = Mutex<[Value]>([])
    func record(_ value: Value) { values.withLock { $0.append(value) } }
    var all: [Value] { values.withLock { $0 } }
}

/// Why a connection attempt ended.
struct ConnectionError: Error, CustomStringConvertible {
    let description: String
}

/// Completes a handshake promise and a reply promise once each, from a channel's events.
final class ConnectionObserver: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = ByteBuffer
    typealias OutboundOut = ByteBuffer

    private var handshake: EventLoopPromise<Void>?
    private var reply: EventLoopPromise<String>?
    /// The server echoes what it reads, prefixed; a client waits for that.
    private let echoes: Bool

    init(handshake: EventLoopPromise<Void>?, reply: EventLoopPromise<String>?, echoes: Bool) {
        self.handshake = handshake
        self.reply = reply
        self.echoes = echoes
    }

    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        if let event = event as? TLSUserEvent, case .handshakeCompleted = event {
            handshake?.succeed(())
            handshake = nil
        }
        context.fireUserInboundEventTriggered(event)
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        let buffer = unwrapInboundIn(data)
        let text = String(buffer: buffer)
        if echoes {
            context.writeAndFlush(wrapOutboundOut(ByteBuffer(string: "pong:" + text)), promise: nil)
        } else {
            reply?.succeed(text)
            reply = nil
        }
    }

    func errorCaught(context: ChannelHandlerContext, error: Error) {
        fail(error)
        context.close(promise: nil)
    }

    func channelInactive(context: ChannelHandlerContext) {
        fail(ConnectionError(description: "the connection closed"))
        context.fireChannelInactive()
    }

    private func fail(_ error: Error) {
        handshake?.fail(error)
        handshake = nil
        reply?.fail(error)
        reply = nil
    }
}

/// A TLS server on 127.0.0.1 with an ephemeral port: it answers `pong:` and what it read, and records each
/// connection's handshake (success, or the error).
final class TestTLSServer: Sendable {
    let channel: Channel
    let handshakes = Recorder<Result<Void, ConnectionError>>()

    var port: Int { channel.localAddress!.port! }

    init(group: EventLoopGroup, configuration: TLSConfiguration, clientVerifier: PeerTrustVerifier? = nil) async throws {
        let context = try NIOSSLContext(configuration: configuration)
        let handshakes = handshakes
        channel = try await ServerBootstrap(group: group)
            .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
            .childChannelInitializer { child in
                child.eventLoop.makeCompletedFuture {
                    let tls = clientVerifier.map { $0.serverHandler(context: context) } ?? NIOSSLServerHandler(context: context)
                    let handshake = child.eventLoop.makePromise(of: Void.self)
                    handshake.futureResult.whenComplete { result in
                        handshakes.record(result.mapError { ConnectionError(description: "\($0)") })
                    }
                    try child.pipeline.syncOperations.addHandler(tls)
                    try child.pipeline.syncOperations.addHandler(ConnectionObserver(handshake: handshake, reply: nil, echoes: true))
                }
            }
            .bind(host: "127.0.0.1", port: 0).get()
    }

    func stop() async {
        try? await channel.close()
    }
}

/// What a client's connection attempt gave: the reply and the protocol version, or the error.
struct ClientOutcome {
    let reply: String?
    let version: TLSVersion?
    let error: Error?
}

/// Connects to `port` on 127.0.0.1 with `configuration`, verifying the server with `verifier`, sends `ping` and
/// waits (10 s at most) for the answer; closes the connection.
func connect(group: EventLoopGroup, port: Int, configuration: TLSConfiguration, verifier: PeerTrustVerifier) async throws -> ClientOutcome {
    let context = try NIOSSLContext(configuration: configuration)
    let loop = group.next()
    let handshake = loop.makePromise(of: Void.self)
    let reply = loop.makePromise(of: String.self)
    let timeout = loop.scheduleTask(in: .seconds(10)) {
        handshake.fail(ConnectionError(description: "timed out"))
        reply.fail(ConnectionError(description: "timed out"))
    }
    defer { timeout.cancel() }
    let channel: Channel
    do {
        channel = try await ClientBootstrap(group: loop)
            .channelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    try channel.pipeline.syncOperations.addHandler(try verifier.clientHandler(context: context))
                    try channel.pipeline.syncOperations.addHandler(ConnectionObserver(handshake: handshake, reply: reply, echoes: false))
                }
            }
            .connect(host: "127.0.0.1", port: port).get()
    } catch {
        handshake.fail(error)
        reply.fail(error)
        throw error
    }
    do {
        try await handshake.futureResult.get()
        let version = try await channel.nioSSL_tlsVersion().get()
        try await channel.writeAndFlush(ByteBuffer(string: "ping"))
        let answer = try await reply.futureResult.get()
        try? await channel.close()
        return ClientOutcome(reply: answer, version: version, error: nil)
    } catch {
        reply.fail(error)
        try? await channel.close()
        return ClientOutcome(reply: nil, version: nil, error: error)
    }
}

/// Whether `error` is swift-nio-ssl's handshake failure with BoringSSL's `reason` (such as
/// `CERTIFICATE_VERIFY_FAILED`) in its error stack.
func isHandshakeFailure(_ error: Error?, reason: String) -> Bool {
    guard let error = error as? NIOSSLError, case .handshakeFailed(let underlying) = error else { return false }
    return "\(underlying)".contains(reason)
}
