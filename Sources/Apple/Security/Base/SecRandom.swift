/// `SecRandomRef`: a random-number generator. The only one is ``kSecRandomDefault``.
public typealias SecRandomRef = OpaquePointer

/// The system's cryptographically secure generator: `nil`, as on Apple platforms.
public var kSecRandomDefault: SecRandomRef? { nil }

/// Fills `bytes` with `count` bytes from the system's cryptographically secure generator (Swift's `SystemRandomNumberGenerator`, which reads `getrandom` on Linux) and
/// returns ``errSecSuccess``. Every `rnd` means ``kSecRandomDefault``, as on Apple platforms.
public func SecRandomCopyBytes(_ rnd: SecRandomRef?, _ count: Int, _ bytes: UnsafeMutableRawPointer) -> Int32 {
    guard count > 0 else { return errSecSuccess }
    var generator = SystemRandomNumberGenerator()
    let destination = UnsafeMutableRawBufferPointer(start: bytes, count: count)
    var offset = 0
    while offset < count {
        withUnsafeBytes(of: generator.next()) { word in
            let length = min(word.count, count - offset)
            UnsafeMutableRawBufferPointer(rebasing: destination[offset..<offset + length])
                .copyMemory(from: UnsafeRawBufferPointer(rebasing: word[..<length]))
            offset += length
        }
    }
    return errSecSuccess
}
