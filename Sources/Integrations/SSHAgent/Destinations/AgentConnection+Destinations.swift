import Foundation

extension AgentConnection {
    /// Whether a key with `constraints` may be used on this connection (OpenSSH's `identity_permitted`): to list it,
    /// remove it or replace it (`user` nil), or to sign a login as `user` at the last host.
    ///
    /// A key without constraints always may; with constraints, not after a failed binding with none recorded, and
    /// always on a connection that bound nothing (local use; signing there is refused by the caller). Otherwise each
    /// binding, first to last, must be permitted by one constraint from the previous binding's host (the origin for
    /// the first) to its own; every binding but the last must be a forwarding one, and the user is checked only
    /// against the last, where a signature is refused if that binding forwards. Listing on a connection whose last
    /// binding forwards needs, besides, a constraint that lets the key be used onward from that host.
    /// Host certificates (`@cert-authority` keys) are checked for validity at `now`.
    public func permits(_ constraints: [DestinationConstraint], user: String?, now: Date = Date()) -> Bool {
        if constraints.isEmpty { return true }
        let time = UInt64(max(0, now.timeIntervalSince1970))
        if bindAttempted && bindings.isEmpty { return false }
        guard let last = bindings.last else { return true }
        var previousHost: Data?
        for (index, binding) in bindings.enumerated() {
            var checkedUser: String?
            if index == bindings.count - 1 {
                checkedUser = user
                if binding.isForwarding && user != nil { return false }
            } else if !binding.isForwarding {
                return false
            }
            let hop = constraints.contains { $0.permits(from: previousHost, to: binding.hostKey, user: checkedUser, at: time) }
            guard hop else { return false }
            previousHost = binding.hostKey
        }
        if last.isForwarding && user == nil {
            return constraints.contains { $0.permits(from: last.hostKey, to: nil, user: nil, at: time) }
        }
        return true
    }
}

extension DestinationConstraint {
    /// Whether this constraint lets a key be used from the host with key `fromHost` (nil: the origin) to the host
    /// with key `toHost` (nil: anywhere), logging in as `user` (nil: not checked), as OpenSSH's
    /// `permitted_by_dest_constraints` checks one constraint; certificates are checked for validity at `time`.
    func permits(from fromHost: Data?, to toHost: Data?, user: String?, at time: UInt64) -> Bool {
        if let fromHost {
            guard from.matches(hostKey: fromHost, at: time) else { return false }
        } else {
            guard from.hostname == nil, from.keys.isEmpty else { return false }
        }
        if let toHost, !to.matches(hostKey: toHost, at: time) { return false }
        if let pattern = to.user, let user, !UserPattern.matches(user, pattern: pattern) { return false }
        return true
    }
}
