import Foundation
import Query

// Apple's authentication schemes, the values of `kSecAttrAuthenticationType` (keychain reference §1.3.2).
// `nonisolated(unsafe)`: see CFString+ItemConstants.swift.

/// Authentication by NTLM.
nonisolated(unsafe) public let kSecAttrAuthenticationTypeNTLM: CFString = .tableValue(QueryConstant.authenticationTypes, "NTLM")
/// Authentication by MSN.
nonisolated(unsafe) public let kSecAttrAuthenticationTypeMSN: CFString = .tableValue(QueryConstant.authenticationTypes, "MSN")
/// Authentication by DPA.
nonisolated(unsafe) public let kSecAttrAuthenticationTypeDPA: CFString = .tableValue(QueryConstant.authenticationTypes, "DPA")
/// Authentication by RPA.
nonisolated(unsafe) public let kSecAttrAuthenticationTypeRPA: CFString = .tableValue(QueryConstant.authenticationTypes, "RPA")
/// Authentication by HTTP basic.
nonisolated(unsafe) public let kSecAttrAuthenticationTypeHTTPBasic: CFString = .tableValue(QueryConstant.authenticationTypes, "HTTPBasic")
/// Authentication by HTTP digest.
nonisolated(unsafe) public let kSecAttrAuthenticationTypeHTTPDigest: CFString = .tableValue(QueryConstant.authenticationTypes, "HTTPDigest")
/// Authentication by an HTML form.
nonisolated(unsafe) public let kSecAttrAuthenticationTypeHTMLForm: CFString = .tableValue(QueryConstant.authenticationTypes, "HTMLForm")
/// Authentication by the default scheme.
nonisolated(unsafe) public let kSecAttrAuthenticationTypeDefault: CFString = .tableValue(QueryConstant.authenticationTypes, "Default")
