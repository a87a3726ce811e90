import CCofferSystem

#if canImport(Glibc)
import Glibc
#endif

/// Memory for secrets that is kept out of swap where the system allows: whole pages of its own, locked
/// with `mlock`, zeroized and unlocked when released.
///
/// Memory locks do not stack (one `munlock` unlocks a page however many buffers locked it), so each
/// allocation has pages no other allocation shares: unlocking one secret never unlocks another. The
/// cost is one page per secret, which suits the few, small secrets Coffer holds (passcodes, class and
/// device keys).
///
/// Locking fails when `RLIMIT_MEMLOCK` is exhausted (or the system forbids it); the memory is then used
/// unlocked, which is what it would have been without this: never a crash or an error.
struct LockedMemory: ~Copyable {
    /// The usable bytes (exactly the requested count; the pages beyond them stay zero).
    let buffer: UnsafeMutableRawBufferPointer
    /// Whether `mlock` succeeded: the pages cannot be swapped out.
    let isLocked: Bool
    private let base: UnsafeMutableRawPointer
    private let pageBytes: Int

    /// Allocates `count` zeroed bytes (at least one page) and tries to lock them.
    init(count: Int) {
        let page = Swift.max(Int(sysconf(Int32(_SC_PAGESIZE))), 4096)
        let pageBytes = Swift.max((count + page - 1) / page, 1) * page
        var pointer: UnsafeMutableRawPointer?
        guard posix_memalign(&pointer, page, pageBytes) == 0, let pointer else {
            fatalError("out of memory allocating \(pageBytes) bytes for a secret")
        }
        memset(pointer, 0, pageBytes)
        base = pointer
        self.pageBytes = pageBytes
        isLocked = mlock(pointer, pageBytes) == 0
        buffer = UnsafeMutableRawBufferPointer(start: pointer, count: count)
    }

    deinit {
        coffer_secure_zero(base, pageBytes)
        if isLocked { munlock(base, pageBytes) }
        free(base)
    }
}
