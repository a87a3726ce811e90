import Foundation
import KeychainModel

// coffer-lint:disable-file file-protection-on-linux: this maps Foundation's options onto Coffer's protected files.

extension FileProtectionType {
    /// The class this protection names; `.inactive` and unknown values have none on this platform.
    var fileProtectionClass: FileProtectionClass? {
        FileProtectionClass.allCases.first { $0.appleName == rawValue }
    }

    /// The protection of `protectionClass`.
    init(_ protectionClass: FileProtectionClass) {
        self.init(rawValue: protectionClass.appleName)
    }

    /// The class this protection names, or the error for one Coffer cannot give.
    func requiredClass(path: String?) throws(ProtectedFileError) -> FileProtectionClass {
        guard let protectionClass = fileProtectionClass else {
            throw ProtectedFileError(
                .featureUnsupported, path: path,
                reason: "the file protection \(rawValue) is not supported; use complete, completeUnlessOpen, completeUntilFirstUserAuthentication or none")
        }
        return protectionClass
    }
}

extension Data.WritingOptions {
    /// The protection these options ask for (`.completeFileProtection` and the others), if any. The protection
    /// options are values in one 4-bit field (Foundation's `fileProtectionMask`), not separate flags.
    var requestedProtection: FileProtectionType? {
        let field = rawValue & 0xF000_0000
        switch field {
        case 0: return nil
        case Self.noFileProtection.rawValue: return FileProtectionType.none
        case Self.completeFileProtection.rawValue: return .complete
        case Self.completeFileProtectionUnlessOpen.rawValue: return .completeUnlessOpen
        case Self.completeFileProtectionUntilFirstUserAuthentication.rawValue: return .completeUntilFirstUserAuthentication
        default: return FileProtectionType(rawValue: "NSFileProtectionCompleteWhenUserInactive")
        }
    }
}
