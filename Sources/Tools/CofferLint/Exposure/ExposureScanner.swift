import SwiftSyntax

/// Finds secrets leaving the keychain's protection: printed or logged without privacy, kept in `UserDefaults`,
/// or written to files with Foundation's file protection, which Linux does not have.
final class ExposureScanner: ScopedVisitor {
    private let file: SourceFile
    private(set) var findings: [Finding] = []
    /// Per scope, the variables holding what a keychain search returned.
    private var keychainValues: [SyntaxIdentifier: Set<String>] = [:]

    init(file: SourceFile) {
        self.file = file
        super.init()
    }

    // MARK: Following keychain results

    // A value made from what a search returned is a secret too (`let token = String(data: data, encoding: .utf8)`);
    // a value made by passing a secret somewhere (`connect(password: password)`) is not.

    override func visitPost(_ node: VariableDeclSyntax) {
        for binding in node.bindings {
            guard let name = binding.pattern.as(IdentifierPatternSyntax.self)?.identifier.text, let value = binding.initializer?.value else { continue }
            if keychainValuesHere().secret(in: value) != nil { markKeychainValue(name) }
        }
    }

    override func visitPost(_ node: OptionalBindingConditionSyntax) {
        // `if let data = result as? Data`, `guard let data`
        guard let name = node.pattern.as(IdentifierPatternSyntax.self)?.identifier.text else { return }
        let value = node.initializer.map { ExprSyntax($0.value) } ?? ExprSyntax(DeclReferenceExprSyntax(baseName: .identifier(name)))
        if keychainValuesHere().secret(in: value) != nil { markKeychainValue(name) }
    }

    // MARK: Calls

    override func visitPost(_ node: FunctionCallExprSyntax) {
        guard let name = ConstantReader.calledName(node) else { return }
        let arguments = Array(node.arguments)
        switch name {
        case "SecItemCopyMatching" where arguments.count > 1:
            if let result = ConstantReader.variableName(arguments[1].expression) { markKeychainValue(result) }
        case "print", "debugPrint", "dump", "NSLog":
            guard node.calledExpression.is(DeclReferenceExprSyntax.self) else { return }
            for argument in arguments where argument.label == nil {
                if let secret = mentions().secret(in: argument.expression) {
                    findings.append(Finding(.secretInLog, "\(name) writes '\(secret)', a secret, to the output", at: file.point(argument)))
                }
            }
        case "os_log":
            findings += osLog(node)
        case "trace", "debug", "info", "notice", "log", "warning", "error", "critical", "fault":
            guard let base = node.calledExpression.as(MemberAccessExprSyntax.self)?.base, base.trimmedDescription.lowercased().contains("log") else { return }
            findings += loggerMessage(node, level: name)
        case "set", "setValue":
            findings += userDefaults(node)
        default:
            break
        }
    }

    /// `os_log("%{public}@", log: …, token)`: a value formatted `{public}` is written in the clear.
    private func osLog(_ node: FunctionCallExprSyntax) -> [Finding] {
        let arguments = Array(node.arguments)
        guard let formatIndex = arguments.firstIndex(where: { $0.expression.is(StringLiteralExprSyntax.self) }) else { return [] }
        let formatExpression = arguments[formatIndex].expression
        guard let format = ExpressionReader.stringLiteral(formatExpression) else { return loggerMessage(node, level: "os_log") }
        let specifiers = Self.formatSpecifiers(format).filter { $0 != "%" }
        let values = arguments[(formatIndex + 1)...].filter { $0.label == nil }
        return zip(specifiers, values).compactMap { specifier, value in
            guard specifier.contains("{public}"), let secret = mentions().secret(in: value.expression) else { return nil }
            return Finding(.secretInLog, "os_log writes '\(secret)', a secret, as %{public}: it is kept in the log in the clear", at: file.point(value))
        }
    }

    /// A logger's message: each interpolated secret needs `privacy: .private` (or `.sensitive`), which swift-log
    /// does not have at all.
    private func loggerMessage(_ node: FunctionCallExprSyntax, level: String) -> [Finding] {
        var findings: [Finding] = []
        var seen: Set<SyntaxIdentifier> = []
        for argument in node.arguments {
            for segment in argument.expression.tokens(viewMode: .sourceAccurate).compactMap({ $0.parent?.as(ExpressionSegmentSyntax.self) }) {
                guard seen.insert(segment.id).inserted else { continue }
                let privacy = segment.expressions.first { $0.label?.text == "privacy" }?.expression.trimmedDescription ?? ""
                guard !privacy.contains("private"), !privacy.contains("sensitive"), let value = segment.expressions.first?.expression,
                    let secret = mentions().secret(in: value)
                else { continue }
                findings.append(
                    Finding(.secretInLog, "logs '\(secret)', a secret, without privacy: .private: the value is written to the log", at: file.point(segment)))
            }
        }
        return findings
    }

    /// `UserDefaults.standard.set(token, forKey: "authToken")`.
    private func userDefaults(_ node: FunctionCallExprSyntax) -> [Finding] {
        let arguments = Array(node.arguments)
        guard let base = node.calledExpression.as(MemberAccessExprSyntax.self)?.base, base.trimmedDescription.lowercased().contains("defaults"),
            let value = arguments.first, let key = arguments.first(where: { $0.label?.text == "forKey" })
        else { return [] }
        if let secret = mentions().secret(in: value.expression) {
            return [Finding(.secretInUserDefaults, "stores '\(secret)', a secret, in UserDefaults, a plain property list", at: file.point(value))]
        }
        if let keyName = ExpressionReader.stringLiteral(key.expression), SecretNames.isSecret(keyName) {
            return [Finding(.secretInUserDefaults, "stores a secret in UserDefaults under \"\(keyName)\", a plain property list", at: file.point(value))]
        }
        return []
    }

    override func visitPost(_ node: AttributeSyntax) {
        // `@AppStorage("authToken") var token = ""`
        guard node.attributeName.trimmedDescription == "AppStorage", case .argumentList(let arguments)? = node.arguments,
            let key = arguments.first.flatMap({ ExpressionReader.stringLiteral($0.expression) })
        else { return }
        let variable = node.parent?.parent?.as(VariableDeclSyntax.self)?.bindings.first?.pattern.trimmedDescription ?? ""
        guard SecretNames.isSecret(key) || SecretNames.isSecret(variable) else { return }
        findings.append(Finding(.secretInUserDefaults, "@AppStorage(\"\(key)\") keeps a secret in UserDefaults, a plain property list", at: file.point(node)))
    }

    // MARK: Foundation's file protection

    override func visitPost(_ node: MemberAccessExprSyntax) {
        // `.completeFileProtection…` write options, and `.protectionKey` as a key of the attributes given to
        // FileManager; a FileProtectionType alone (a comparison, Coffer's own calls) writes nothing.
        let name = node.declName.baseName.text
        let writingOption = name.hasPrefix("completeFileProtection")
        let attributeKey = name == "protectionKey" && node.parent?.as(DictionaryElementSyntax.self)?.key.id == node.id
        guard writingOption || attributeKey, !isGivenToProtectedFile(node) else { return }
        findings.append(
            Finding(
                .fileProtectionOnLinux,
                ".\(name) does nothing on Linux: the file is written unprotected; Coffer's ProtectedFile.write(_:to:options:) encrypts it under the keychain's class keys",
                at: file.point(node)))
    }

    override func visitPost(_ node: DeclReferenceExprSyntax) {
        let name = node.baseName.text
        guard name == "NSFileProtectionKey", node.parent?.as(DictionaryElementSyntax.self)?.key.id == node.id else { return }
        findings.append(Finding(.fileProtectionOnLinux, "\(name) does nothing on Linux: the file is written unprotected", at: file.point(node)))
    }

    private func isGivenToProtectedFile(_ node: some SyntaxProtocol) -> Bool {
        var current = Syntax(node).parent
        while let candidate = current {
            if let call = candidate.as(FunctionCallExprSyntax.self), call.calledExpression.trimmedDescription.hasPrefix("ProtectedFile") { return true }
            if Scopes.opensScope(candidate) { return false }
            current = candidate.parent
        }
        return false
    }

    // MARK: Helpers

    private func markKeychainValue(_ name: String) {
        keychainValues[innermost, default: []].insert(name)
    }

    /// Secrets by name or by what a keychain search returned, visible at the node being visited.
    private func mentions() -> SecretMentions {
        let chain = chain
        return SecretMentions(bySecretName: true) { [keychainValues] name in chain.contains { keychainValues[$0]?.contains(name) == true } }
    }

    /// What a keychain search returned, alone, visible at the node being visited.
    private func keychainValuesHere() -> SecretMentions {
        let chain = chain
        return SecretMentions(bySecretName: false) { [keychainValues] name in chain.contains { keychainValues[$0]?.contains(name) == true } }
    }

    /// The conversion specifications of a printf-style format (`%{public}@`, `%d`, `%%` as "%").
    static func formatSpecifiers(_ format: String) -> [String] {
        var specifiers: [String] = []
        var index = format.startIndex
        while let percent = format[index...].firstIndex(of: "%") {
            var end = format.index(after: percent)
            // `%{public, name}@`: the braces hold options, not the conversion.
            if end < format.endIndex, format[end] == "{", let close = format[end...].firstIndex(of: "}") { end = format.index(after: close) }
            while end < format.endIndex, !"@dDiuUxXoOfFeEgGcCsSpaA%".contains(format[end]) { end = format.index(after: end) }
            guard end < format.endIndex else { break }
            let specifier = String(format[percent...end])
            specifiers.append(specifier == "%%" ? "%" : specifier)
            index = format.index(after: end)
        }
        return specifiers
    }
}
