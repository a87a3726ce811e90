import KeychainModel

extension Response {
    /// The status an audit record gives this answer: 0 for an answer with a result, Apple's code for a failure,
    /// `errSecAuthNeeded` (-25330) for a call that waits on the person.
    public var auditStatus: Int32 {
        switch self {
        case .status(let status), .failure(let status, _): status.code
        case .keystoreError(let error): error.status.code
        case .authenticationNeeded: KeychainStatus.authNeeded.code
        case .authenticationFailure(let failure): Int32(failure.code.rawValue)
        default: 0
        }
    }
}
