import Foundation
import KeychainModel

/// The `NSData` this module hands to callers (`SecItemCopyMatching`'s data, a key's external representation,
/// a signature, a plaintext, a certificate's DER), as Apple's framework hands out its own private `NSData`
/// subclasses.
///
/// It holds its own copy of the bytes and wipes it when it is freed, since the bytes are often secret. It is
/// also `ContiguousBytes`, which is what makes a caller's `as? Data` one copy: swift-corelibs-foundation builds
/// the `Data` with `Data.init(_:)`, which reads a `ContiguousBytes` sequence in one go and any other `NSData`
/// one byte at a time (about 3 µs for a 24-byte password, 160 µs for a 2 KB certificate).
final class ResultData: NSData, ContiguousBytes {
    private let storage: UnsafeMutableRawBufferPointer
    private let byteCount: Int

    /// An object holding a copy of `bytes`.
    init(copying bytes: Data) {
        let storage = UnsafeMutableRawBufferPointer.allocate(byteCount: Swift.max(bytes.count, 1), alignment: 16)
        bytes.withUnsafeBytes { storage.copyMemory(from: $0) }
        self.storage = storage
        byteCount = bytes.count
        super.init()
    }

    /// Never decoded: it archives as a plain `NSData` (``classForCoder``).
    required init?(coder: NSCoder) { nil }

    deinit {
        storage.zeroize()
        storage.deallocate()
    }

    override var length: Int { byteCount }

    override var bytes: UnsafeRawPointer { UnsafeRawPointer(storage.baseAddress!) }

    /// Archived as the `NSData` it stands for.
    override var classForCoder: AnyClass { NSData.self }

    func withUnsafeBytes<Result>(_ body: (UnsafeRawBufferPointer) throws -> Result) rethrows -> Result {
        try body(UnsafeRawBufferPointer(start: storage.baseAddress, count: byteCount))
    }
}
