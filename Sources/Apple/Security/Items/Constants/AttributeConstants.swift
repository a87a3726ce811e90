import Foundation
import Query

// Apple's item attribute keys (keychain reference §1.3) that every class or the password classes have,
// and the attribute values a search may use.
// `nonisolated(unsafe)`: see CFString+ItemConstants.swift.

/// When the item can be used: one of the `kSecAttrAccessible…` values (`pdmn`).
nonisolated(unsafe) public let kSecAttrAccessible: CFString = .constant(QueryKey.accessible)
/// A ``SecAccessControl`` (`accc`).
nonisolated(unsafe) public let kSecAttrAccessControl: CFString = .constant(QueryKey.accessControl)
/// The item's access group (`agrp`).
nonisolated(unsafe) public let kSecAttrAccessGroup: CFString = .constant(QueryKey.accessGroup)
/// When the item was added (`cdat`).
nonisolated(unsafe) public let kSecAttrCreationDate: CFString = .constant(QueryKey.creationDate)
/// When the item was last changed (`mdat`).
nonisolated(unsafe) public let kSecAttrModificationDate: CFString = .constant(QueryKey.modificationDate)
/// A label for people (`labl`).
nonisolated(unsafe) public let kSecAttrLabel: CFString = .constant(QueryKey.label)
/// Whether the item is synchronized (`sync`).
nonisolated(unsafe) public let kSecAttrSynchronizable: CFString = .constant(QueryKey.synchronizable)
/// The synchronization view (`vwht`).
nonisolated(unsafe) public let kSecAttrSyncViewHint: CFString = .constant(QueryKey.syncViewHint)
/// The token that holds the item (`tkid`).
nonisolated(unsafe) public let kSecAttrTokenID: CFString = .constant(QueryKey.tokenID)
/// The item's persistent reference (`persistref`).
nonisolated(unsafe) public let kSecAttrPersistentReference: CFString = .constant(QueryKey.persistentReference)
/// Apple's misspelled alias of ``kSecAttrPersistentReference``.
nonisolated(unsafe) public let kSecAttrPersistantReference: CFString = .constant(QueryKey.persistentReference)
/// A description for people (`desc`).
nonisolated(unsafe) public let kSecAttrDescription: CFString = .constant(QueryKey.description)
/// A comment (`icmt`).
nonisolated(unsafe) public let kSecAttrComment: CFString = .constant(QueryKey.comment)
/// The creator code (`crtr`).
nonisolated(unsafe) public let kSecAttrCreator: CFString = .constant(QueryKey.creator)
/// The type code (`type`).
nonisolated(unsafe) public let kSecAttrType: CFString = .constant(QueryKey.type)
/// Whether the item is hidden from people (`invi`).
nonisolated(unsafe) public let kSecAttrIsInvisible: CFString = .constant(QueryKey.isInvisible)
/// Whether the item is a placeholder without a valid password (`nega`).
nonisolated(unsafe) public let kSecAttrIsNegative: CFString = .constant(QueryKey.isNegative)
/// The account name (`acct`).
nonisolated(unsafe) public let kSecAttrAccount: CFString = .constant(QueryKey.account)
/// The service name (`svce`).
nonisolated(unsafe) public let kSecAttrService: CFString = .constant(QueryKey.service)
/// Application data (`gena`).
nonisolated(unsafe) public let kSecAttrGeneric: CFString = .constant(QueryKey.generic)
/// The security domain (`sdmn`).
nonisolated(unsafe) public let kSecAttrSecurityDomain: CFString = .constant(QueryKey.securityDomain)
/// The server's name or address (`srvr`).
nonisolated(unsafe) public let kSecAttrServer: CFString = .constant(QueryKey.server)
/// The protocol: one of the `kSecAttrProtocol…` values (`ptcl`).
nonisolated(unsafe) public let kSecAttrProtocol: CFString = .constant(QueryKey.`protocol`)
/// The authentication scheme: one of the `kSecAttrAuthenticationType…` values (`atyp`).
nonisolated(unsafe) public let kSecAttrAuthenticationType: CFString = .constant(QueryKey.authenticationType)
/// The port number (`port`).
nonisolated(unsafe) public let kSecAttrPort: CFString = .constant(QueryKey.port)
/// The path (`path`).
nonisolated(unsafe) public let kSecAttrPath: CFString = .constant(QueryKey.path)
/// An alias (`alis`; private on Apple platforms).
nonisolated(unsafe) public let kSecAttrAlias: CFString = .constant(QueryKey.alias)
/// The script code (`scrp`; private on Apple platforms).
nonisolated(unsafe) public let kSecAttrScriptCode: CFString = .constant(QueryKey.scriptCode)
/// Whether the item has a custom icon (`cusi`; private on Apple platforms).
nonisolated(unsafe) public let kSecAttrHasCustomIcon: CFString = .constant(QueryKey.hasCustomIcon)
/// Whether the item is a tombstone (`tomb`; private on Apple platforms).
nonisolated(unsafe) public let kSecAttrTombstone: CFString = .constant(QueryKey.tombstone)
/// The item's digest (`sha1`; private on Apple platforms).
nonisolated(unsafe) public let kSecAttrSHA1: CFString = .constant(QueryKey.sha1)
/// The user view (`musr`; private on Apple platforms).
nonisolated(unsafe) public let kSecAttrMultiUser: CFString = .constant(QueryKey.multiUser)
/// The synchronization identifier (`UUID`; private on Apple platforms).
nonisolated(unsafe) public let kSecAttrUUID: CFString = .constant(QueryKey.uuid)
/// System binding flags (`sysb`; private on Apple platforms).
nonisolated(unsafe) public let kSecAttrSysBound: CFString = .constant(QueryKey.sysBound)
/// `pcss` (private on Apple platforms).
nonisolated(unsafe) public let kSecAttrPCSPlaintextServiceIdentifier: CFString = .constant(QueryKey.pcsPlaintextServiceIdentifier)
/// `pcsk` (private on Apple platforms).
nonisolated(unsafe) public let kSecAttrPCSPlaintextPublicKey: CFString = .constant(QueryKey.pcsPlaintextPublicKey)
/// `pcsi` (private on Apple platforms).
nonisolated(unsafe) public let kSecAttrPCSPlaintextPublicIdentity: CFString = .constant(QueryKey.pcsPlaintextPublicIdentity)
/// Whether an App Clip made the item (`clip`; private on Apple platforms, refused in queries).
nonisolated(unsafe) public let kSecAttrAppClipItem: CFString = .constant(QueryKey.appClipItem)
/// The sharing group (`ggrp`; private on Apple platforms).
nonisolated(unsafe) public let kSecAttrSharingGroup: CFString = .constant(QueryKey.sharingGroup)
/// Secret notes of an internet password (`binn`; private on Apple platforms).
nonisolated(unsafe) public let kSecDataInetExtraNotes: CFString = .constant(QueryKey.inetExtraNotes)
/// Secret history of an internet password (`bini`; private on Apple platforms).
nonisolated(unsafe) public let kSecDataInetExtraHistory: CFString = .constant(QueryKey.inetExtraHistory)
/// Secret client data 0 of an internet password (`bin0`; private on Apple platforms).
nonisolated(unsafe) public let kSecDataInetExtraClientDefined0: CFString = .constant(QueryKey.inetExtraClientDefined[0])
/// Secret client data 1 of an internet password (`bin1`; private on Apple platforms).
nonisolated(unsafe) public let kSecDataInetExtraClientDefined1: CFString = .constant(QueryKey.inetExtraClientDefined[1])
/// Secret client data 2 of an internet password (`bin2`; private on Apple platforms).
nonisolated(unsafe) public let kSecDataInetExtraClientDefined2: CFString = .constant(QueryKey.inetExtraClientDefined[2])
/// Secret client data 3 of an internet password (`bin3`; private on Apple platforms).
nonisolated(unsafe) public let kSecDataInetExtraClientDefined3: CFString = .constant(QueryKey.inetExtraClientDefined[3])
/// As the value of ``kSecAttrSynchronizable`` in a search: synchronized and local items alike.
nonisolated(unsafe) public let kSecAttrSynchronizableAny: CFString = .constant(QueryConstant.synchronizableAny)
/// The read-only access group of token items.
nonisolated(unsafe) public let kSecAttrAccessGroupToken: CFString = .constant(QueryConstant.accessGroupToken)
