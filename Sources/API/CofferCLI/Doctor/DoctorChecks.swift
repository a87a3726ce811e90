import Foundation
import KeychainSelection
import KeychainModel

/// The checks `coffer doctor` runs, each from what this process can see: the environment, the keychain's answers,
/// this user's processes and the helpers' configuration files.
struct DoctorChecks {
    let environment: [String: String]
    /// The keychain the environment selects, chosen once: the choice may probe a per-user daemon's socket.
    let choice: KeychainLocation.Choice
    let client: any KeychainClient

    init(environment: [String: String]) {
        self.environment = environment
        choice = KeychainLocation.choice(environment: environment)
        client = KeychainLocation.client(for: choice, environment: environment)
    }

    func all() -> [DoctorFinding] {
        var findings = [keychain()]
        var status: KeystoreStatus?
        var failure: String?
        do {
            status = try client.blocking.lockStatus()
        } catch {
            failure = error.description
        }
        findings.append(reachable(failure: failure))
        if let status { findings += [passcode(status), deviceKey(status.deviceKey)] }
        if case .daemon = choice { findings.append(promptAgent()) }
        findings += [secretService(), sshAgent(), git(), docker()]
        return findings
    }

    /// Which keychain, and why.
    func keychain() -> DoctorFinding {
        let why: String
        switch choice {
        case .embedded(let folder):
            why = "embedded in \(folder.url.path) (\(environment["COFFER_HOME"].map { _ in "COFFER_HOME" } ?? "the default folder"))"
        case .daemon(let socket):
            if environment["COFFER_SOCKET"] == socket {
                why = "the daemon at \(socket) (COFFER_SOCKET)"
            } else if socket == KeychainLocation.systemSocketPath {
                why = "the system daemon at \(socket)"
            } else {
                why = "the per-user daemon at \(socket), serving \(KeychainFolder.fromEnvironment(environment).url.path)"
            }
        }
        return DoctorFinding(area: "keychain", text: why)
    }

    /// Whether the keychain answers; `failure` is why it did not.
    func reachable(failure: String?) -> DoctorFinding {
        guard let failure else { return DoctorFinding(area: "reachable", text: "yes") }
        let fix =
            switch choice {
            case .daemon: "start the daemon (sudo systemctl start cofferd.socket, or cofferd --user), or unset COFFER_SOCKET"
            case .embedded: "make COFFER_HOME a folder of yours (mode 0700), or unset it"
            }
        return DoctorFinding(area: "reachable", text: "no: \(failure)", fix: fix)
    }

    func passcode(_ status: KeystoreStatus) -> DoctorFinding {
        guard status.passcodeSet else {
            return DoctorFinding(
                area: "passcode", text: "not set: whoever reads your keychain's files reads its items",
                fix: "coffer passcode set")
        }
        let text = "set; the keychain is \(status.lockState.rawValue)"
        guard case .embedded(let folder) = choice else {
            return DoctorFinding(area: "passcode", text: text)
        }
        if SessionDaemon.wantsDaemon(for: folder, environment: environment) {
            return DoctorFinding(area: "passcode", text: text + "; the next coffer command starts cofferd --user for this session")
        }
        // Not a problem: every command still works, asking for the passcode each time.
        return DoctorFinding(
            area: "passcode",
            text: text
                + " for each command alone (no daemon keeps it unlocked between commands: run cofferd --user, or use a login session, where coffer starts one)")
    }

    /// What protects the device key: a file, or the TPM; a recovery key never shown is a problem, since losing the TPM
    /// would then lose the keychain.
    func deviceKey(_ protection: DeviceKeyProtection) -> DoctorFinding {
        switch protection {
        case .tpm(let binding) where binding.recoveryKeyPending:
            return DoctorFinding(
                area: "device key", text: "sealed by the TPM, and its recovery key was never shown: without it a lost TPM loses the keychain",
                fix: "coffer keystore recovery-key (and keep it away from this machine)")
        case .tpm(let binding):
            return DoctorFinding(
                area: "device key", text: "sealed by the TPM at \(binding.tcti) (storage root key \(binding.storageRootKeyFingerprint.prefix(16))…)")
        case .file(nil):
            return DoctorFinding(area: "device key", text: "a file; this machine's TPM could seal it: coffer keystore bind-tpm")
        case .file(let whyNoTPM?):
            return DoctorFinding(area: "device key", text: "a file (\(whyNoTPM))")
        }
    }

    /// The prompt agent, which the daemon asks when a program needs the keychain unlocked.
    func promptAgent() -> DoctorFinding {
        if let pid = UserProcesses.first(where: { $0.contains("prompt-agent") && $0.first?.hasSuffix("coffer") == true }) {
            return DoctorFinding(area: "prompt agent", text: "running (process \(pid))")
        }
        return DoctorFinding(
            area: "prompt agent", text: "not running: programs that need the keychain unlocked cannot ask you",
            fix: "systemctl --user enable --now coffer-prompt-agent.service, or run coffer prompt-agent in your session")
    }

    /// Who serves the Secret Service on this session's bus.
    func secretService() -> DoctorFinding {
        guard environment["DBUS_SESSION_BUS_ADDRESS"] != nil || environment["XDG_RUNTIME_DIR"] != nil else {
            return DoctorFinding(area: "secret service", text: "no session bus in this shell")
        }
        if let pid = UserProcesses.first(where: { $0.first?.hasSuffix("coffer-secret-service") == true }) {
            return DoctorFinding(
                area: "secret service",
                text: "coffer-secret-service runs (process \(pid)); each program sees only its own items: coffer apps owners says whose they are")
        }
        if let pid = UserProcesses.first(where: { $0.first?.hasSuffix("gnome-keyring-daemon") == true }) {
            return DoctorFinding(
                area: "secret service", text: "gnome-keyring-daemon runs (process \(pid)): every program of yours reads every secret there",
                fix: "coffer import-secret-service, then mask gnome-keyring's secrets component and enable coffer-secret-service (README)")
        }
        return DoctorFinding(area: "secret service", text: "no provider runs (it may start on first use, by D-Bus activation)")
    }

    /// The SSH agent `SSH_AUTH_SOCK` names.
    func sshAgent() -> DoctorFinding {
        guard let socket = environment["SSH_AUTH_SOCK"], !socket.isEmpty else {
            return DoctorFinding(area: "ssh agent", text: "SSH_AUTH_SOCK is not set", fix: "eval \"$(coffer ssh-agent)\"")
        }
        var status = stat()
        guard stat(socket, &status) == 0, status.st_mode & S_IFMT == S_IFSOCK else {
            return DoctorFinding(area: "ssh agent", text: "SSH_AUTH_SOCK names \(socket), which is not a socket", fix: "eval \"$(coffer ssh-agent)\"")
        }
        let ours = UserProcesses.first { $0.first?.hasSuffix("coffer") == true && $0.contains("ssh-agent") && $0.contains(socket) } != nil
        return DoctorFinding(area: "ssh agent", text: ours ? "coffer ssh-agent at \(socket)" : "an agent at \(socket)")
    }

    /// git's credential helper.
    func git() -> DoctorFinding {
        guard let helpers = GitConfiguration.credentialHelpers(environment: environment) else {
            return DoctorFinding(area: "git", text: "git is not installed")
        }
        if helpers.contains(where: { $0 == "coffer" || $0.hasSuffix("git-credential-coffer") }) {
            return DoctorFinding(area: "git", text: "credential.helper is coffer")
        }
        return DoctorFinding(
            area: "git", text: helpers.isEmpty ? "no credential helper" : "credential.helper is \(helpers.joined(separator: ", "))",
            fix: "git config --global credential.helper coffer")
    }

    /// docker's credential store.
    func docker() -> DoctorFinding {
        let home = environment["DOCKER_CONFIG"] ?? ((environment["HOME"] ?? NSHomeDirectory()) + "/.docker")
        guard let data = FileManager.default.contents(atPath: home + "/config.json") else {
            return DoctorFinding(area: "docker", text: "no \(home)/config.json")
        }
        let store = (try? JSONSerialization.jsonObject(with: data) as? [String: Any])?["credsStore"] as? String
        if store == "coffer" { return DoctorFinding(area: "docker", text: "credsStore is coffer") }
        return DoctorFinding(
            area: "docker", text: store.map { "credsStore is \($0)" } ?? "no credsStore",
            fix: "set \"credsStore\": \"coffer\" in \(home)/config.json")
    }
}
