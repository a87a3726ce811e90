import Foundation
import Testing

/// `coffer lint` runs `coffer-lint` in its place: the findings, compiler-style or JSON, and the exit status by severity.
@Suite struct LintCommandTests {
    @Test func findingsAndTheExitStatusAreCofferLints() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("coffer-lint-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let wrapper = folder.appendingPathComponent("Wrapper.swift")
        try """
        func save(_ secret: Data) {
            var query: [String: Any] = [kSecClass as String: kSecClassGenericPassword]
            query[kSecAttrAccessible as String] = kSecAttrAccessibleAlways
            SecItemAdd(query as CFDictionary, nil)
        }
        """.write(to: wrapper, atomically: true, encoding: .utf8)
        let cli = CLIRunner()
        let warned = try cli.run(["lint", folder.path])
        #expect(warned.status == 1, "\(warned.standardError)")
        #expect(
            warned.standardOutput
                == "\(wrapper.path):3:11: warning: [accessible-always] kSecAttrAccessibleAlways is deprecated: the item is readable while the device is locked\n"
        )
        let json = try cli.run(["lint", "--format", "json", wrapper.path])
        #expect(json.standardOutput.contains("\"rule\" : \"accessible-always\""))
        try "func clean() {}\n".write(to: wrapper, atomically: true, encoding: .utf8)
        #expect(try cli.run(["lint", folder.path]).status == 0)
        let missing = try cli.run(["lint", folder.appendingPathComponent("nope.swift").path])
        #expect(missing.status != 0 && missing.standardError.contains("no such file or folder"))
    }
}
