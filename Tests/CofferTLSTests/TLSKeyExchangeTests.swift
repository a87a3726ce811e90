import CofferTLS
import Foundation
import NIOCore
import NIOPosix
import NIOSSL
import Testing

/// The hybrid post-quantum key exchange of App Transport Security's defaults: a CofferTLS client offers
/// X25519MLKEM768 first with a key share for it, a CofferTLS server accepts a client that offers nothing else, and
/// peers without it still connect over X25519 or a NIST curve.
extension TLSConnectionTests {
    @Test func aClientOffersTheHybridGroupFirstWithAKeyShare() async throws {
        let group = MultiThreadedEventLoopGroup(numberOfThreads: 1)
        let capture = group.next().makePromise(of: ByteBuffer.self)
        let listener = try await ServerBootstrap(group: group)
            .childChannelInitializer { child in
                child.eventLoop.makeCompletedFuture { try child.pipeline.syncOperations.addHandler(ClientHelloCapture(capture)) }
            }
            .bind(host: "127.0.0.1", port: 0).get()
        // The client's handshake fails (nothing answers): only what it sent matters.
        let client = Task {
            try? await connect(
                group: group, port: listener.localAddress!.port!, configuration: AppTransportSecurity.clientConfiguration(),
                verifier: verifier(pins: nil, outcomes: Recorder()))
        }
        let captured = try await capture.futureResult.get()
        _ = await client.value
        try await listener.close()
        try await group.shutdownGracefully()
        let hello = try ClientHello(captured)
        #expect(hello.supportedGroups == [0x11EC, 0x001D, 0x0017, 0x0018], "X25519MLKEM768, X25519, P-256, P-384")
        #expect(hello.keyShares.first?.group == 0x11EC)
        // ML-KEM-768's encapsulation key (1,184 bytes) and X25519's share (32).
        #expect(hello.keyShares.first?.length == 1216)
        #expect(hello.keyShares.map(\.group).contains(0x001D))
    }

    @Test(arguments: [[NIOTLSCurve.x25519_MLKEM768], [.x25519], [.secp384r1]])
    func aServerAcceptsTheHybridAndClassicalGroups(offered: [NIOTLSCurve]) async throws {
        let outcome = try await withServer(pinned) { group, server in
            var configuration = AppTransportSecurity.clientConfiguration()
            configuration.curves = offered
            return try await connect(
                group: group, port: server.port, configuration: configuration, verifier: verifier(pins: nil, outcomes: Recorder()))
        }
        #expect(outcome.error == nil, "\(String(describing: outcome.error))")
        #expect(outcome.reply == "pong:ping")
        #expect(outcome.version == .tlsv13)
    }
}

/// Reads the first TLS record a client sends and hands it over.
private final class ClientHelloCapture: ChannelInboundHandler, @unchecked Sendable {
    typealias InboundIn = ByteBuffer
    private var buffer = ByteBuffer()
    private let done: EventLoopPromise<ByteBuffer>
    private var finished = false

    init(_ done: EventLoopPromise<ByteBuffer>) { self.done = done }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        var bytes = unwrapInboundIn(data)
        buffer.writeBuffer(&bytes)
        guard !finished, buffer.readableBytes >= 5, let length = buffer.getInteger(at: buffer.readerIndex + 3, as: UInt16.self),
            buffer.readableBytes >= 5 + Int(length)
        else { return }
        finished = true
        done.succeed(buffer.getSlice(at: buffer.readerIndex, length: 5 + Int(length))!)
        context.close(promise: nil)
    }
}

/// The parts of a TLS ClientHello these tests read: the supported_groups list and the key shares.
private struct ClientHello {
    struct Malformed: Error {}

    var supportedGroups: [UInt16] = []
    var keyShares: [(group: UInt16, length: Int)] = []

    init(_ record: ByteBuffer) throws {
        var record = record
        // The record header (content type 22, version, length), then the handshake's type (1, ClientHello).
        guard record.readInteger(as: UInt8.self) == 0x16 else { throw Malformed() }
        record.moveReaderIndex(forwardBy: 4)
        guard record.readInteger(as: UInt8.self) == 0x01 else { throw Malformed() }
        // Handshake length (3), version (2), random (32), session id, cipher suites, compression methods.
        record.moveReaderIndex(forwardBy: 3 + 2 + 32)
        guard let sessionID = record.readInteger(as: UInt8.self) else { throw Malformed() }
        record.moveReaderIndex(forwardBy: Int(sessionID))
        guard let suites = record.readInteger(as: UInt16.self) else { throw Malformed() }
        record.moveReaderIndex(forwardBy: Int(suites))
        guard let compression = record.readInteger(as: UInt8.self) else { throw Malformed() }
        record.moveReaderIndex(forwardBy: Int(compression))
        guard let extensionsLength = record.readInteger(as: UInt16.self), var extensions = record.readSlice(length: Int(extensionsLength)) else {
            throw Malformed()
        }
        while let type = extensions.readInteger(as: UInt16.self), let length = extensions.readInteger(as: UInt16.self) {
            guard var body = extensions.readSlice(length: Int(length)) else { throw Malformed() }
            switch type {
            case 0x000A:
                _ = body.readInteger(as: UInt16.self)
                while let group = body.readInteger(as: UInt16.self) { supportedGroups.append(group) }
            case 0x0033:
                _ = body.readInteger(as: UInt16.self)
                while let group = body.readInteger(as: UInt16.self), let shareLength = body.readInteger(as: UInt16.self) {
                    keyShares.append((group, Int(shareLength)))
                    body.moveReaderIndex(forwardBy: Int(shareLength))
                }
            default: break
            }
        }
    }
}
