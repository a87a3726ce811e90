/// Which failed-attempt count a passcode attempt is charged to: that decides what a wrong passcode costs.
///
/// iOS counts every wrong device passcode, because only the person types it, on the lock screen. Through
/// the daemon a passcode can also come from a program, so the two kinds of attempt are counted apart: a
/// program's guesses delay that program only and never erase the keychain, while the person, through the
/// trusted prompt, keeps Apple's count, delays and opt-in erase.
public enum PasscodeAttempts: Sendable, Hashable {
    /// The keybag's count: shared by every process that opens the keychain and kept across restarts,
    /// with Apple's delays and, when the owner opted in, the erase after ``PasscodePolicy/eraseThreshold``
    /// failures. The embedded keychain charges every attempt here; the daemon charges only attempts made
    /// through its trusted prompt.
    case keybag
    /// A count kept in memory for one caller, named for logs (a program, never a secret): its wrong
    /// passcodes delay its own next attempts, with the same schedule, and never erase anything.
    case caller(String)

    /// The name failed attempts are logged with.
    public var logName: String {
        switch self {
        case .keybag: "the trusted prompt"
        case .caller(let name): name
        }
    }
}
