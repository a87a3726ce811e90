import DaemonProtocol
import KeychainOperations
import Testing

/// The one table of operation traits (`Request.Kind.traits`): every kind has a row (the compiler sees to that),
/// a wire tag of its own in the requests' range, and the rows agree with what the layers reading them promise.
@Suite struct OperationTraitsTests {
    /// The answers' tags, which no request may use.
    static let answerTags: [UInt8] = [
        MessageTag.value, MessageTag.status, MessageTag.keystoreError, MessageTag.lockStatusResult, MessageTag.apps,
        MessageTag.failure, MessageTag.prompt, MessageTag.authenticationFailure, MessageTag.authenticationCapabilitiesResult,
        MessageTag.authenticationNeeded, MessageTag.tokenKey, MessageTag.fileKey, MessageTag.backup, MessageTag.restoreReport,
        MessageTag.addOutcomes,
    ]

    @Test func everyKindHasAWireTagOfItsOwnBelowTheAnswers() {
        let tags = Request.Kind.allCases.map(\.traits.wireTag)
        #expect(Set(tags).count == Request.Kind.allCases.count)
        #expect(tags.allSatisfy { $0 > 0 && $0 < 0x80 })
        #expect(Set(tags).isDisjoint(with: Self.answerTags))
        #expect(Set(Self.answerTags).count == Self.answerTags.count && Self.answerTags.allSatisfy { $0 >= 0x80 })
    }

    @Test func theRowsKeepTheLayersPromises() {
        for kind in Request.Kind.allCases {
            let traits = kind.traits
            // A request that grows the keychain is never resent blindly after a broken connection.
            #expect(!(traits.growsStorage && traits.isIdempotent), "\(kind)")
        }
        // A passcode reaches the daemon only from a trusted front end; item requests never wait for a person.
        for kind: Request.Kind in [.unlock, .setPasscode, .changePasscode, .removePasscode, .proveOwner, .answerPrompt] {
            #expect(kind.traits.isReservedToTrustedFrontEnds && kind.traits.mayWaitForPerson, "\(kind)")
        }
        for kind: Request.Kind in [.add, .copyMatching, .update, .delete] {
            #expect(!kind.traits.mayWaitForPerson && !kind.traits.isReservedToTrustedFrontEnds, "\(kind)")
        }
        #expect(Request.Kind.copyMatching.traits.isIdempotent && !Request.Kind.add.traits.isIdempotent)
        // The tags are the wire format: they never change.
        #expect(Request.Kind.add.traits.wireTag == 0x01 && Request.Kind.stageRestore.traits.wireTag == 0x72)
        #expect(MessageTag.useTokenKey == 0x51)
    }
}
