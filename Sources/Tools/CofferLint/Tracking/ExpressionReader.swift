import SwiftSyntax

/// Reads query dictionaries and their values out of expressions, with what is known at that point: the variables
/// in scope and the helpers of the whole package.
struct ExpressionReader {
    let file: SourceFile
    /// The binding of a variable visible where the expression is.
    let lookup: (String) -> Binding?
    let helpers: HelperCatalogue

    /// The dictionary an expression is: a literal, a tracked variable, a parameter, a helper's result, or
    /// `a.merging(b) { … }` of those; nil when the source does not show one.
    func dictionary(_ expression: ExprSyntax) -> TrackedDictionary? {
        let inner = ConstantReader.unwrapped(expression)
        if let literal = inner.as(DictionaryExprSyntax.self) { return dictionary(literal) }
        if let name = ConstantReader.variableName(inner) {
            switch lookup(name) {
            case .dictionary(var found)?:
                found.variableName = name
                return found
            case .parameter(let index)?:
                var started = TrackedDictionary()
                started.parameterIndex = index
                started.variableName = name
                return started
            default:
                return helpers.returnedDictionary(named: name)
            }
        }
        if let member = inner.as(MemberAccessExprSyntax.self) {
            return helpers.returnedDictionary(named: member.declName.baseName.text)
        }
        if let call = inner.as(FunctionCallExprSyntax.self), let name = ConstantReader.calledName(call) {
            if name == "merging", let member = call.calledExpression.as(MemberAccessExprSyntax.self), let base = member.base,
                var merged = dictionary(base), let other = call.arguments.first.flatMap({ dictionary($0.expression) })
            {
                merged.merge(other)
                return merged
            }
            return helpers.returnedDictionary(named: name)
        }
        return nil
    }

    /// The entries of a dictionary literal whose keys are Apple's constants.
    func dictionary(_ literal: DictionaryExprSyntax) -> TrackedDictionary {
        var tracked = TrackedDictionary()
        guard case .elements(let elements) = literal.content else { return tracked }
        for element in elements {
            guard let key = ConstantReader.constant(element.key) else { continue }
            let (value, name) = value(element.value)
            tracked.set(
                .init(
                    code: key.code, constantName: key.name, value: value, valueName: name, point: file.point(element.key),
                    valueNameSpan: ConstantReader.reference(element.value).map(file.span), removal: file.removal(of: element, in: elements)))
        }
        return tracked
    }

    /// What the source makes known of a value, with the constant's name when it is one.
    func value(_ expression: ExprSyntax) -> (TrackedValue, name: String?) {
        if let found = ConstantReader.constant(expression) { return (.string(found.code), found.name) }
        let inner = ConstantReader.unwrapped(expression)
        if let literal = inner.as(BooleanLiteralExprSyntax.self) { return (.bool(literal.literal.tokenKind == .keyword(.true)), nil) }
        if let reference = inner.as(DeclReferenceExprSyntax.self), ["kCFBooleanTrue", "kCFBooleanFalse"].contains(reference.baseName.text) {
            return (.bool(reference.baseName.text == "kCFBooleanTrue"), nil)
        }
        if let text = Self.stringLiteral(inner) { return (.string(text), nil) }
        if let control = accessControl(inner) { return (.accessControl(control), nil) }
        if let name = ConstantReader.variableName(inner) {
            switch lookup(name) {
            case .dictionary(let nested)?: return (.dictionary(nested), nil)
            case .accessControl(let control)?: return (.accessControl(control), nil)
            case .hardCoded?: return (.hardCoded, nil)
            case .text(let text)?: return (.string(text), nil)
            case .parameter?: return (.unknown, nil)
            case nil: return (helpers.text(named: name).map(TrackedValue.string) ?? .unknown, nil)
            }
        }
        if isHardCoded(inner) { return (.hardCoded, nil) }
        if inner.is(DictionaryExprSyntax.self) || inner.is(FunctionCallExprSyntax.self) || inner.is(MemberAccessExprSyntax.self),
            let nested = dictionary(inner), !nested.entries.isEmpty
        {
            return (.dictionary(nested), nil)
        }
        return (.unknown, nil)
    }

    /// `SecAccessControlCreateWithFlags(allocator, protection, flags, error)`, with `!` or `try` around it.
    func accessControl(_ expression: ExprSyntax) -> AccessControlValue? {
        guard let call = ConstantReader.unwrapped(expression).as(FunctionCallExprSyntax.self),
            ConstantReader.calledName(call) == "SecAccessControlCreateWithFlags", call.arguments.count >= 3
        else { return nil }
        let arguments = Array(call.arguments)
        let protection = ConstantReader.constant(arguments[1].expression)?.name
        let flags = arguments[2].expression.tokens(viewMode: .sourceAccurate).compactMap { token -> String? in
            guard case .identifier(let name) = token.tokenKind, token.previousToken(viewMode: .sourceAccurate)?.tokenKind == .period else { return nil }
            return name
        }
        return AccessControlValue(protectionName: protection, flags: flags)
    }

    /// Whether the expression is bytes or text written into the source: `"…".data(using:)`, `Data("…".utf8)`,
    /// `Data([0x01, …])`, `Array("…".utf8)`, or a variable that holds one.
    func isHardCoded(_ expression: ExprSyntax) -> Bool {
        let inner = ConstantReader.unwrapped(expression)
        if Self.stringLiteral(inner) != nil { return true }
        if let array = inner.as(ArrayExprSyntax.self) {
            return !array.elements.isEmpty && array.elements.allSatisfy { $0.expression.is(IntegerLiteralExprSyntax.self) }
        }
        if let name = ConstantReader.variableName(inner) {
            switch lookup(name) {
            case .hardCoded?, .text?: return true
            default: return false
            }
        }
        if let member = inner.as(MemberAccessExprSyntax.self), member.declName.baseName.text == "utf8", let base = member.base {
            return isHardCoded(base)
        }
        guard let call = inner.as(FunctionCallExprSyntax.self), let name = ConstantReader.calledName(call) else { return false }
        switch name {
        case "data":
            guard let base = call.calledExpression.as(MemberAccessExprSyntax.self)?.base else { return false }
            return isHardCoded(base)
        case "Data", "Array", "String":
            guard call.arguments.count == 1, let argument = call.arguments.first, argument.label == nil else { return false }
            return isHardCoded(argument.expression)
        default:
            return false
        }
    }

    /// The text of a string literal without interpolation, or nil.
    static func stringLiteral(_ expression: ExprSyntax) -> String? {
        guard let literal = expression.as(StringLiteralExprSyntax.self) else { return nil }
        var text = ""
        for segment in literal.segments {
            guard let plain = segment.as(StringSegmentSyntax.self) else { return nil }
            text += plain.content.text
        }
        return text
    }
}
