import Query

extension ItemQuery {
    /// `kSecUseOperationPrompt`: why the call asks, shown in the prompt.
    public var operationPrompt: String? {
        get { entries[QueryKey.useOperationPrompt].flatMap { if case .string(let text) = $0 { text } else { nil } } }
        set { entries[QueryKey.useOperationPrompt] = newValue.map { .string($0) } }
    }

    /// `kSecUseAuthenticationUI`: prompt (the default), fail with -25308, or leave protected items out
    /// (searches only).
    public var authenticationUI: AuthenticationUI? {
        get {
            switch entries[QueryKey.useAuthenticationUI] {
            case .string(QueryConstant.authenticationUIFail)?: .fail
            case .string(QueryConstant.authenticationUISkip)?: .skip
            case .string?: .allow
            default: nil
            }
        }
        set {
            entries[QueryKey.useAuthenticationUI] = newValue.map {
                switch $0 {
                case .allow: .string(QueryConstant.authenticationUIAllow)
                case .fail: .string(QueryConstant.authenticationUIFail)
                case .skip: .string(QueryConstant.authenticationUISkip)
                }
            }
        }
    }
}
