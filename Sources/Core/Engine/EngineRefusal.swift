import KeychainModel
import Query

/// Why the engine refused a call: Apple's status, the rule of the reference that decided it, a reason for
/// people and, for `errSecAuthNeeded`, what the person must prove, so that the keychain service can ask for it
/// without reading the store again.
///
/// Reasons name attributes and groups, never a secret or an item's data.
public struct EngineRefusal: Error, Sendable, CustomStringConvertible {
    /// Apple's status.
    public let status: KeychainStatus
    /// The rule that decided it (`G13`, `C5`…); nil where none of the reference's numbers does.
    public let rule: KeychainRule?
    /// What was refused and why; nil when the status says it all.
    public let reason: String?
    /// For `errSecAuthNeeded`, what opening the item requires.
    public let requirement: AuthenticationRequirement?

    /// A refusal with `status`, the `rule` that decided it and the `reason`.
    public init(_ status: KeychainStatus, _ rule: KeychainRule? = nil, _ reason: String? = nil) {
        self.status = status
        self.rule = rule
        self.reason = reason
        requirement = nil
    }

    private init(requirement: AuthenticationRequirement) {
        status = .authNeeded
        rule = nil
        reason = "the item's access control requires authentication"
        self.requirement = requirement
    }

    /// `errSecAuthNeeded`: an item needs `requirement` proved, and the call may prompt (§6.4).
    public static func authenticationNeeded(_ requirement: AuthenticationRequirement) -> EngineRefusal {
        EngineRefusal(requirement: requirement)
    }

    /// The rule and the reason, as the refusal crosses the seam: `G13: … `.
    public var message: String? {
        switch (rule, reason) {
        case (let rule?, let reason?): "\(rule.id): \(reason)"
        case (let rule?, nil): "\(rule.id): \(rule.situation)"
        case (nil, let reason): reason
        }
    }

    /// The failure the caller receives: Apple's status and the message.
    public var failure: KeychainFailure { KeychainFailure(status, reason: message) }

    /// The message and the status.
    public var description: String { failure.description }
}

extension EngineRefusal {
    /// G1: the caller has no access groups.
    static let noGroups = EngineRefusal(
        .missingEntitlement, .g1, "the calling program has no keychain access groups (COFFER_ACCESS_GROUPS, or its registration)")

    /// G13 or U6: `group` is not one of the caller's access groups.
    static func outsideGroups(_ group: String, _ rule: KeychainRule) -> EngineRefusal {
        EngineRefusal(.missingEntitlement, rule, "kSecAttrAccessGroup \"\(group)\" is not one of the calling program's access groups")
    }

    /// C1, U9 or D3: nothing matched.
    static func nothingMatched(_ rule: KeychainRule) -> EngineRefusal {
        EngineRefusal(.itemNotFound, rule, "no item matches the query among the calling program's access groups")
    }

    /// G19: reading or using something needs authentication (`requirement`, when known), and the call may not
    /// prompt.
    static func mayNotPrompt(_ what: String, _ requirement: AuthenticationRequirement? = nil) -> EngineRefusal {
        let needed = requirement.map { " (\($0.appleNames))" } ?? ""
        return EngineRefusal(.interactionNotAllowed, .g19, "\(what) requires authentication\(needed), and the call may not prompt")
    }
}

extension EngineRefusal {
    /// An item sealed with an application password, and no password in the call's context: -25308 when the
    /// call may not prompt (G19), else -25293, as a wrong password answers (G21).
    static func applicationPasswordMissing(_ ui: AuthenticationUI) -> EngineRefusal {
        ui == .fail
            ? .mayNotPrompt("the item's application password")
            : EngineRefusal(.authFailed, .g21, "the item's access control needs an application password, and the call's context has none")
    }
}
