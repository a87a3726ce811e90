/// The key derivation work one file may ask for, all its derivations together: each derivation spends its
/// iteration count times the digest blocks it produces, before it runs. A file whose MAC, contents and shrouded
/// keys together ask for more is refused as malformed (`errSecDecode`), so that many bags of few iterations each
/// cannot add up to hours where ``PKCS12Limits/maximumIterations`` bounds one.
final class PKCS12WorkBudget {
    /// Iteration-blocks still allowed.
    private(set) var remaining: Int

    /// A budget of `total` iteration-blocks: ``PKCS12Limits/maximumTotalWork`` unless a test says otherwise.
    init(total: Int = PKCS12Limits.maximumTotalWork) {
        remaining = total
    }

    /// Takes the work of a derivation of `iterations` rounds producing `outputBytes` from a digest of
    /// `digestSize`-byte output; throws, taking nothing, when the file's budget cannot pay for it.
    func spend(iterations: Int, outputBytes: Int, digestSize: Int) throws(PKCS12Error) {
        let blocks = max(1, (outputBytes + digestSize - 1) / digestSize)
        let (work, overflow) = iterations.multipliedReportingOverflow(by: blocks)
        guard !overflow, work <= remaining else {
            throw .malformed(
                "the file asks for more key derivation work than \(PKCS12Limits.maximumTotalWork) iterations in all")
        }
        remaining -= work
    }
}
