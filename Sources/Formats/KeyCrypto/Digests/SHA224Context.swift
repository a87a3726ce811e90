import CCofferSystem

/// The running state of a ``SHA224`` computation: the eight working words, the partial block and the
/// length. Its memory is overwritten with zeros when it is released.
final class SHA224Context: @unchecked Sendable {
    // Mutated only through a uniquely referenced SHA224 value (copy on write), so never shared while written.
    private let state = UnsafeMutablePointer<UInt32>.allocate(capacity: 8)
    private let schedule = UnsafeMutablePointer<UInt32>.allocate(capacity: 64)
    private let block = UnsafeMutablePointer<UInt8>.allocate(capacity: 64)
    private var pending = 0
    private var totalByteCount: UInt64 = 0

    init() {
        state.initialize(from: Self.initialValues, count: 8)
        schedule.initialize(repeating: 0, count: 64)
        block.initialize(repeating: 0, count: 64)
    }

    deinit {
        coffer_secure_zero(state, 8 * MemoryLayout<UInt32>.size)
        coffer_secure_zero(schedule, 64 * MemoryLayout<UInt32>.size)
        coffer_secure_zero(block, 64)
        state.deallocate()
        schedule.deallocate()
        block.deallocate()
    }

    /// An independent context in the same state.
    func copy() -> SHA224Context {
        let copy = SHA224Context()
        copy.state.update(from: state, count: 8)
        copy.block.update(from: block, count: 64)
        copy.pending = pending
        copy.totalByteCount = totalByteCount
        return copy
    }

    /// Adds `bytes` to the message.
    func absorb(_ bytes: UnsafeRawBufferPointer) {
        totalByteCount &+= UInt64(bytes.count)
        for byte in bytes {
            block[pending] = byte
            pending += 1
            if pending == 64 {
                compressBlock()
                pending = 0
            }
        }
    }

    /// Pads the message, processes the last blocks and returns the digest. The context is spent.
    func finish() -> SHA224Digest {
        let bitCount = totalByteCount &* 8
        block[pending] = 0x80
        pending += 1
        if pending > 56 {
            while pending < 64 { block[pending] = 0; pending += 1 }
            compressBlock()
            pending = 0
        }
        while pending < 56 { block[pending] = 0; pending += 1 }
        for index in 0..<8 { block[56 + index] = UInt8(truncatingIfNeeded: bitCount >> (56 - 8 * UInt64(index))) }
        compressBlock()
        var digest = [UInt8](repeating: 0, count: SHA224Digest.byteCount)
        for word in 0..<7 {
            for byte in 0..<4 { digest[4 * word + byte] = UInt8(truncatingIfNeeded: state[word] >> (24 - 8 * UInt32(byte))) }
        }
        return SHA224Digest(bytes: digest)
    }

    private func compressBlock() {
        for index in 0..<16 {
            schedule[index] =
                UInt32(block[4 * index]) << 24 | UInt32(block[4 * index + 1]) << 16
                | UInt32(block[4 * index + 2]) << 8 | UInt32(block[4 * index + 3])
        }
        for index in 16..<64 {
            let early = schedule[index - 15], late = schedule[index - 2]
            let sigma0 = early.rotatedRight(7) ^ early.rotatedRight(18) ^ (early >> 3)
            let sigma1 = late.rotatedRight(17) ^ late.rotatedRight(19) ^ (late >> 10)
            schedule[index] = schedule[index - 16] &+ sigma0 &+ schedule[index - 7] &+ sigma1
        }
        var a = state[0], b = state[1], c = state[2], d = state[3]
        var e = state[4], f = state[5], g = state[6], h = state[7]
        for index in 0..<64 {
            let sum1 = e.rotatedRight(6) ^ e.rotatedRight(11) ^ e.rotatedRight(25)
            let choice = (e & f) ^ (~e & g)
            let first = h &+ sum1 &+ choice &+ Self.roundConstants[index] &+ schedule[index]
            let sum0 = a.rotatedRight(2) ^ a.rotatedRight(13) ^ a.rotatedRight(22)
            let majority = (a & b) ^ (a & c) ^ (b & c)
            let second = sum0 &+ majority
            h = g; g = f; f = e; e = d &+ first
            d = c; c = b; b = a; a = first &+ second
        }
        state[0] &+= a; state[1] &+= b; state[2] &+= c; state[3] &+= d
        state[4] &+= e; state[5] &+= f; state[6] &+= g; state[7] &+= h
    }

    /// FIPS 180-4 §5.3.2.
    private static let initialValues: [UInt32] = [
        0xc105_9ed8, 0x367c_d507, 0x3070_dd17, 0xf70e_5939, 0xffc0_0b31, 0x6858_1511, 0x64f9_8fa7, 0xbefa_4fa4,
    ]

    /// FIPS 180-4 §4.2.2: the first 32 bits of the fractional parts of the cube roots of the first 64 primes.
    private static let roundConstants: [UInt32] = [
        0x428a_2f98, 0x7137_4491, 0xb5c0_fbcf, 0xe9b5_dba5, 0x3956_c25b, 0x59f1_11f1, 0x923f_82a4, 0xab1c_5ed5,
        0xd807_aa98, 0x1283_5b01, 0x2431_85be, 0x550c_7dc3, 0x72be_5d74, 0x80de_b1fe, 0x9bdc_06a7, 0xc19b_f174,
        0xe49b_69c1, 0xefbe_4786, 0x0fc1_9dc6, 0x240c_a1cc, 0x2de9_2c6f, 0x4a74_84aa, 0x5cb0_a9dc, 0x76f9_88da,
        0x983e_5152, 0xa831_c66d, 0xb003_27c8, 0xbf59_7fc7, 0xc6e0_0bf3, 0xd5a7_9147, 0x06ca_6351, 0x1429_2967,
        0x27b7_0a85, 0x2e1b_2138, 0x4d2c_6dfc, 0x5338_0d13, 0x650a_7354, 0x766a_0abb, 0x81c2_c92e, 0x9272_2c85,
        0xa2bf_e8a1, 0xa81a_664b, 0xc24b_8b70, 0xc76c_51a3, 0xd192_e819, 0xd699_0624, 0xf40e_3585, 0x106a_a070,
        0x19a4_c116, 0x1e37_6c08, 0x2748_774c, 0x34b0_bcb5, 0x391c_0cb3, 0x4ed8_aa4a, 0x5b9c_ca4f, 0x682e_6ff3,
        0x748f_82ee, 0x78a5_636f, 0x84c8_7814, 0x8cc7_0208, 0x90be_fffa, 0xa450_6ceb, 0xbef9_a3f7, 0xc671_78f2,
    ]
}

extension UInt32 {
    fileprivate func rotatedRight(_ count: UInt32) -> UInt32 { (self >> count) | (self << (32 - count)) }
}
