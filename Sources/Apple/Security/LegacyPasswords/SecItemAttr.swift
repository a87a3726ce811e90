/// The tags of item attributes in the legacy calls (`SecItemAttr`): the attributes' four-character codes,
/// for ``SecKeychainAttribute/tag`` (`SecItemAttr.accountItemAttr.rawValue`).
public enum SecItemAttr: FourCharCode, Sendable {
    /// `'cdat'`: when the item was created.
    case creationDateItemAttr = 0x6364_6174
    /// `'mdat'`: when the item was last changed.
    case modDateItemAttr = 0x6D64_6174
    /// `'desc'`: what kind of item it is, as the user sees it.
    case descriptionItemAttr = 0x6465_7363
    /// `'icmt'`: the user's comment.
    case commentItemAttr = 0x6963_6D74
    /// `'crtr'`: the creator's four-character code.
    case creatorItemAttr = 0x6372_7472
    /// `'type'`: the item's four-character type code.
    case typeItemAttr = 0x7479_7065
    /// `'scrp'`: the script code of the item's strings.
    case scriptCodeItemAttr = 0x7363_7270
    /// `'labl'`: the item's label.
    case labelItemAttr = 0x6C61_626C
    /// `'invi'`: hidden from the user.
    case invisibleItemAttr = 0x696E_7669
    /// `'nega'`: the user chose never to store a password here.
    case negativeItemAttr = 0x6E65_6761
    /// `'cusi'`: the item has a custom icon.
    case customIconItemAttr = 0x6375_7369
    /// `'acct'`: the account.
    case accountItemAttr = 0x6163_6374
    /// `'svce'`: a generic password's service.
    case serviceItemAttr = 0x7376_6365
    /// `'gena'`: a generic password's application-defined attribute.
    case genericItemAttr = 0x6765_6E61
    /// `'sdmn'`: an internet password's security domain.
    case securityDomainItemAttr = 0x7364_6D6E
    /// `'srvr'`: an internet password's server.
    case serverItemAttr = 0x7372_7672
    /// `'atyp'`: an internet password's authentication type.
    case authenticationTypeItemAttr = 0x6174_7970
    /// `'port'`: an internet password's port.
    case portItemAttr = 0x706F_7274
    /// `'path'`: an internet password's path.
    case pathItemAttr = 0x7061_7468
    /// `'vlme'`: an AppleShare volume.
    case volumeItemAttr = 0x766C_6D65
    /// `'addr'`: an AppleShare server's address.
    case addressItemAttr = 0x6164_6472
    /// `'ssig'`: an AppleShare server's signature.
    case signatureItemAttr = 0x7373_6967
    /// `'ptcl'`: an internet password's protocol.
    case protocolItemAttr = 0x7074_636C
    /// `'ctyp'`: a certificate's type.
    case certificateType = 0x6374_7970
    /// `'cenc'`: a certificate's encoding.
    case certificateEncoding = 0x6365_6E63
    /// `'crtp'`: a CRL's type.
    case crlType = 0x6372_7470
    /// `'crnc'`: a CRL's encoding.
    case crlEncoding = 0x6372_6E63
    /// `'alis'`: an alias.
    case alias = 0x616C_6973
}
