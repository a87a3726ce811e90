/// `CFAllocatorRef`. Coffer has one allocator, so the only value is ``kCFAllocatorDefault`` (nil, as on Apple platforms).
public final class CFAllocator: Sendable {
    private init() {}
}

/// The legacy spelling of ``CFAllocator``.
public typealias CFAllocatorRef = CFAllocator

/// The default allocator: `nil`, as on Apple platforms.
public let kCFAllocatorDefault: CFAllocator! = nil
