import Foundation
import Query

// Apple's use keys: how a call runs (keychain reference §2), and the values of `kSecUseAuthenticationUI`.
// `nonisolated(unsafe)`: see CFString+ItemConstants.swift.

/// Deprecated; refused or ignored, as on iOS.
nonisolated(unsafe) public let kSecUseItemList: CFString = .constant(QueryKey.useItemList)
/// Whether deletes leave tombstones (private on Apple platforms).
nonisolated(unsafe) public let kSecUseTombstones: CFString = .constant(QueryKey.useTombstones)
/// An authentication credential handle (private on Apple platforms).
nonisolated(unsafe) public let kSecUseCredentialReference: CFString = .constant(QueryKey.useCredentialReference)
/// The reason shown when authentication is needed.
nonisolated(unsafe) public let kSecUseOperationPrompt: CFString = .constant(QueryKey.useOperationPrompt)
/// Deprecated: `true` fails instead of asking for authentication.
nonisolated(unsafe) public let kSecUseNoAuthenticationUI: CFString = .constant(QueryKey.useNoAuthenticationUI)
/// Whether authentication may be asked for: ``kSecUseAuthenticationUIAllow``, ``kSecUseAuthenticationUIFail`` or ``kSecUseAuthenticationUISkip``.
nonisolated(unsafe) public let kSecUseAuthenticationUI: CFString = .constant(QueryKey.useAuthenticationUI)
/// An `LAContext` to authenticate with.
nonisolated(unsafe) public let kSecUseAuthenticationContext: CFString = .constant(QueryKey.useAuthenticationContext)
/// Use the data-protection keychain (`nleg`); accepted and ignored, as every item is in it.
nonisolated(unsafe) public let kSecUseDataProtectionKeychain: CFString = .constant(QueryKey.useDataProtectionKeychain)
/// The user-independent keychain; needs an Apple-private entitlement (``errSecMissingEntitlement``).
nonisolated(unsafe) public let kSecUseUserIndependentKeychain: CFString = .entitledUseKey("u_UserIndependentKeychain")
/// Ask for authentication when needed (the default).
nonisolated(unsafe) public let kSecUseAuthenticationUIAllow: CFString = .constant(QueryConstant.authenticationUIAllow)
/// Fail with ``errSecInteractionNotAllowed`` instead of asking.
nonisolated(unsafe) public let kSecUseAuthenticationUIFail: CFString = .constant(QueryConstant.authenticationUIFail)
/// Skip items that need authentication (searches only).
nonisolated(unsafe) public let kSecUseAuthenticationUISkip: CFString = .constant(QueryConstant.authenticationUISkip)
