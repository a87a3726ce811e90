import Testing

@testable import Biometry

/// The enrolled-set hash's canonical encoding.
@Suite(.timeLimit(.minutes(10))) struct EnrolledSetTests {
    @Test func orderAndRepeatsDoNotCount() {
        let listed = EnrolledSet(user: "alice", fingers: ["right-thumb", "left-thumb", "right-thumb"])
        #expect(listed.fingers == ["left-thumb", "right-thumb"])
        #expect(listed.hash == EnrolledSet(user: "alice", fingers: ["left-thumb", "right-thumb"]).hash)
        #expect(listed.hash.count == 32)
    }

    /// Lengths precede every field, so moving bytes between the user and a finger changes the hash.
    @Test func fieldsCannotRunIntoEachOther() {
        #expect(EnrolledSet(user: "a", fingers: ["bc"]).hash != EnrolledSet(user: "ab", fingers: ["c"]).hash)
        #expect(EnrolledSet(user: "a", fingers: ["b", "c"]).hash != EnrolledSet(user: "a", fingers: ["bc"]).hash)
        #expect(EnrolledSet(user: "a", fingers: []).hash != EnrolledSet(user: "", fingers: ["a"]).hash)
    }
}
