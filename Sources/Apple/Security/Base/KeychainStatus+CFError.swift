import Foundation
import KeychainModel

extension KeychainStatus {
    /// Hands this status to a caller's `Unmanaged<CFError>?` out-parameter, if it passed one, as an error in
    /// ``kCFErrorDomainOSStatus`` whose description says what was refused and why.
    func report(_ reason: String, to pointer: UnsafeMutablePointer<Unmanaged<CFError>?>?) {
        guard let pointer else { return }
        let error = NSError(
            domain: kCFErrorDomainOSStatus as String, code: Int(code),
            userInfo: [NSLocalizedDescriptionKey: "\(reason): \(name) (\(code)): \(explanation)"])
        pointer.pointee = Unmanaged.passRetained(error)
    }
}
