import SwiftSyntax

/// Walks a file in source order, following each query dictionary from where it is built (a literal or a helper's
/// result bound to a `let` or `var`, then subscript assignments, `merge` and `removeValue`) to the SecItem calls
/// that use it, directly or through the package's wrappers.
///
/// Run first to gather what the file's helpers do (``collected``), then, with every file's helpers known, to
/// find the calls (``calls``) and what their scopes do with the results (``facts``).
final class DictionaryScanner: ScopedVisitor {
    private let file: SourceFile
    private let helpers: HelperCatalogue
    /// The calls found, in source order.
    private(set) var calls: [KeychainCall] = []
    /// What the file's helpers do, for the next round.
    private(set) var collected = HelperCatalogue()
    /// Per scope: names read, results read as arrays.
    private(set) var facts: [SyntaxIdentifier: ScopeFacts] = [:]
    private var bindings: [SyntaxIdentifier: [String: Binding]] = [:]

    init(file: SourceFile, helpers: HelperCatalogue) {
        self.file = file
        self.helpers = helpers
        super.init()
    }

    // MARK: Bindings

    override func enter(_ scope: Syntax) {
        if let function = scope.as(FunctionDeclSyntax.self) {
            bindParameters(function.signature.parameterClause.parameters, in: function.id)
        } else if let initializer = scope.as(InitializerDeclSyntax.self) {
            bindParameters(initializer.signature.parameterClause.parameters, in: initializer.id)
        }
    }

    override func leave(_ scope: Syntax) {
        if let function = scope.as(FunctionDeclSyntax.self) {
            if let only = implicitResult(of: function.body?.statements), let returned = reader().dictionary(only) {
                collected.recordDictionary(returned, named: function.name.text)
            }
        } else if let block = scope.as(AccessorBlockSyntax.self) {
            // `var query: [String: Any] { [kSecClass: …] }`
            guard case .getter(let statements) = block.accessors, let only = implicitResult(of: statements),
                let name = block.parent?.as(PatternBindingSyntax.self)?.pattern.as(IdentifierPatternSyntax.self)?.identifier.text,
                let returned = reader().dictionary(only)
            else { return }
            collected.recordDictionary(returned, named: name)
        }
    }

    override func visitPost(_ node: ReturnStmtSyntax) {
        guard let expression = node.expression, let helper = Scopes.enclosingHelper(of: node),
            let returned = reader().dictionary(expression)
        else { return }
        collected.recordDictionary(returned, named: helper.name)
    }

    override func visitPost(_ node: VariableDeclSyntax) {
        let atMemberLevel = isMemberOrGlobal
        for binding in node.bindings {
            guard let name = binding.pattern.as(IdentifierPatternSyntax.self)?.identifier.text, let initial = binding.initializer?.value,
                let bound = self.binding(of: initial)
            else { continue }
            bindings[innermost, default: [:]][name] = bound
            if atMemberLevel {
                switch bound {
                case .dictionary(let dictionary): collected.recordDictionary(dictionary, named: name)
                case .text(let text): collected.recordText(text, named: name)
                default: break
                }
            }
        }
    }

    override func visitPost(_ node: OptionalBindingConditionSyntax) {
        // `guard let access = SecAccessControlCreateWithFlags(…)`, `if let query = baseQuery()`
        guard let name = node.pattern.as(IdentifierPatternSyntax.self)?.identifier.text, let initial = node.initializer?.value,
            let bound = binding(of: initial)
        else { return }
        bindings[innermost, default: [:]][name] = bound
    }

    override func visitPost(_ node: InfixOperatorExprSyntax) {
        guard node.operator.is(AssignmentExprSyntax.self) else { return }
        // `query = [...]`
        if let name = ConstantReader.variableName(node.leftOperand), let bound = binding(of: node.rightOperand) {
            bind(name, to: bound)
            return
        }
        // `query[kSecAttrService as String] = value`, or `= nil` to remove it.
        guard let subscriptCall = node.leftOperand.as(SubscriptCallExprSyntax.self),
            let name = ConstantReader.variableName(subscriptCall.calledExpression),
            let keyExpression = subscriptCall.arguments.first?.expression, let key = ConstantReader.constant(keyExpression),
            case .dictionary(var tracked)? = lookup(name)
        else { return }
        if node.rightOperand.is(NilLiteralExprSyntax.self) {
            tracked.remove(key.code)
        } else {
            let (value, valueName) = reader().value(node.rightOperand)
            tracked.set(
                .init(
                    code: key.code, constantName: key.name, value: value, valueName: valueName, point: file.point(keyExpression),
                    valueNameSpan: ConstantReader.reference(node.rightOperand).map(file.span), removal: nil))
        }
        bind(name, to: .dictionary(tracked))
    }

    // MARK: Calls

    override func visitPost(_ node: FunctionCallExprSyntax) {
        guard let name = ConstantReader.calledName(node) else { return }
        if updateTrackedDictionary(node, calling: name) { return }
        if let function = KeychainCall.Function(rawValue: name), node.calledExpression.is(DeclReferenceExprSyntax.self) {
            recordDirectCall(node, of: function)
        }
        for wrapper in helpers.wrappers(named: name) { recordWrapperCall(node, through: wrapper, named: name) }
    }

    /// `query.merge(other) { $1 }` and `query.removeValue(forKey: kSecMatchLimit)`.
    private func updateTrackedDictionary(_ node: FunctionCallExprSyntax, calling name: String) -> Bool {
        guard name == "merge" || name == "removeValue", let member = node.calledExpression.as(MemberAccessExprSyntax.self),
            let variable = member.base.flatMap(ConstantReader.variableName), case .dictionary(var tracked)? = lookup(variable),
            let argument = node.arguments.first?.expression
        else { return false }
        if name == "merge" {
            guard let other = reader().dictionary(argument) else { return false }
            tracked.merge(other)
        } else if let key = ConstantReader.constant(argument) {
            tracked.remove(key.code)
        }
        bind(variable, to: .dictionary(tracked))
        return true
    }

    private func recordDirectCall(_ node: FunctionCallExprSyntax, of function: KeychainCall.Function) {
        let arguments = Array(node.arguments)
        let reader = reader()
        guard let first = arguments.first, let query = reader.dictionary(first.expression) else { return }
        let second = function == .update && arguments.count > 1 ? reader.dictionary(arguments[1].expression) : nil
        let result = function == .copyMatching && arguments.count > 1 ? ConstantReader.variableName(arguments[1].expression) : nil
        append(function: function, query: query, attributesToUpdate: second, at: node, wrapper: nil, status: StatusReader.use(of: node), result: result)
        for (role, dictionary) in [query, second].enumerated() {
            guard let index = dictionary?.parameterIndex else { continue }
            recordWrapper(function: function, role: role, parameterIndex: index, added: dictionary ?? TrackedDictionary(), at: node)
        }
    }

    private func recordWrapperCall(_ node: FunctionCallExprSyntax, through wrapper: HelperCatalogue.Wrapper, named name: String) {
        guard let argument = argument(of: node, for: wrapper), let given = reader().dictionary(argument) else { return }
        var merged = given
        merged.merge(wrapper.added)
        merged.parameterIndex = given.parameterIndex
        let query = wrapper.role == 0 ? merged : TrackedDictionary()
        let changes = wrapper.role == 1 ? merged : nil
        append(function: wrapper.function, query: query, attributesToUpdate: changes, at: node, wrapper: name, status: .used, result: nil)
        if let index = given.parameterIndex {
            recordWrapper(function: wrapper.function, role: wrapper.role, parameterIndex: index, added: merged, at: node)
        }
    }

    /// The argument a call gives for the wrapper's parameter: by label, or by position when it has none.
    private func argument(of node: FunctionCallExprSyntax, for wrapper: HelperCatalogue.Wrapper) -> ExprSyntax? {
        let arguments = Array(node.arguments)
        if let label = wrapper.parameterLabel { return arguments.first { $0.label?.text == label }?.expression }
        guard wrapper.parameterIndex < arguments.count, arguments[wrapper.parameterIndex].label == nil else { return nil }
        return arguments[wrapper.parameterIndex].expression
    }

    private func recordWrapper(function: KeychainCall.Function, role: Int, parameterIndex: Int, added: TrackedDictionary, at node: some SyntaxProtocol) {
        guard let helper = Scopes.enclosingHelper(of: node), let declaration = helper.function else { return }
        let parameters = Array(declaration.signature.parameterClause.parameters)
        guard parameterIndex < parameters.count else { return }
        let label = parameters[parameterIndex].firstName
        var added = added
        added.parameterIndex = nil
        collected.recordWrapper(
            .init(
                function: function, role: role, parameterIndex: parameterIndex, parameterLabel: label.tokenKind == .wildcard ? nil : label.text, added: added),
            named: helper.name)
    }

    private func append(
        function: KeychainCall.Function, query: TrackedDictionary, attributesToUpdate: TrackedDictionary?, at node: FunctionCallExprSyntax,
        wrapper: String?, status: KeychainCall.StatusUse, result: String?
    ) {
        calls.append(
            KeychainCall(
                function: function, query: query, attributesToUpdate: attributesToUpdate, point: file.point(node),
                position: node.positionAfterSkippingLeadingTrivia, scope: innermost, wrapper: wrapper, status: status,
                resultVariable: result, afterFailureOf: FailureBranch.failedStatus(around: node),
                inMacOSBranch: PlatformBranch.isMacOSBranchOnLinux(node)))
    }

    // MARK: Scope facts

    override func visitPost(_ node: DeclReferenceExprSyntax) {
        let name = node.baseName.text
        for scope in chain {
            facts[scope, default: ScopeFacts()].references[name, default: []].append(node.positionAfterSkippingLeadingTrivia)
        }
    }

    override func visitPost(_ node: AsExprSyntax) {
        guard let name = ConstantReader.variableName(node.expression), Self.isArrayType(node.type) else { return }
        let scope = innermost
        facts[scope, default: ScopeFacts()].arrayReads[name, default: []].append((node.positionAfterSkippingLeadingTrivia, file.point(node)))
    }

    private static func isArrayType(_ type: TypeSyntax) -> Bool {
        if type.is(ArrayTypeSyntax.self) { return true }
        if let named = type.as(IdentifierTypeSyntax.self) { return ["NSArray", "CFArray", "Array"].contains(named.name.text) }
        return false
    }

    // MARK: Helpers

    private func bindParameters(_ parameters: FunctionParameterListSyntax, in scope: SyntaxIdentifier) {
        for (index, parameter) in parameters.enumerated() {
            bindings[scope, default: [:]][(parameter.secondName ?? parameter.firstName).text] = .parameter(index)
        }
    }

    /// What an initial or assigned value binds a variable to, when the linter follows it.
    private func binding(of expression: ExprSyntax) -> Binding? {
        let reader = reader()
        let inner = ConstantReader.unwrapped(expression)
        if let text = ExpressionReader.stringLiteral(inner) { return .text(text) }
        if let control = reader.accessControl(inner) { return .accessControl(control) }
        if reader.isHardCoded(inner) { return .hardCoded }
        // `[String: Any]()` starts an empty dictionary.
        if let call = inner.as(FunctionCallExprSyntax.self), call.arguments.isEmpty, call.calledExpression.is(DictionaryExprSyntax.self) {
            return .dictionary(TrackedDictionary())
        }
        if let dictionary = reader.dictionary(inner) {
            var copy = dictionary
            copy.variableName = nil
            return .dictionary(copy)
        }
        return nil
    }

    private func implicitResult(of statements: CodeBlockItemListSyntax?) -> ExprSyntax? {
        guard let statements, statements.count == 1, case .expr(let expression) = statements.first?.item else { return nil }
        return expression
    }

    /// Reads expressions with the variables visible at the node being visited.
    private func reader() -> ExpressionReader {
        let chain = chain
        return ExpressionReader(file: file, lookup: { [bindings] name in chain.lazy.compactMap { bindings[$0]?[name] }.first }, helpers: helpers)
    }

    private func lookup(_ name: String) -> Binding? {
        chain.lazy.compactMap { self.bindings[$0]?[name] }.first
    }

    /// Binds `name` in the innermost scope that already has it, or else in the innermost scope.
    private func bind(_ name: String, to binding: Binding) {
        let chain = chain
        let scope = chain.first { bindings[$0]?[name] != nil } ?? chain[0]
        bindings[scope, default: [:]][name] = binding
    }
}
