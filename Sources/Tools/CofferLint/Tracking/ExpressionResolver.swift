import Query
import SwiftSyntax

/// Reads the keys and values of query dictionaries in source: Apple's `kSec…` constants (bare, `as String`,
/// `String(…)`), string and Boolean literals, dictionary literals.
enum ExpressionResolver {
    /// The constant an expression names (`kSecAttrService`, `kSecAttrService as String`, `String(kSecAttrService)`),
    /// with its string; nil for anything else.
    static func constant(_ expression: ExprSyntax) -> (name: String, code: String)? {
        if let reference = expression.as(DeclReferenceExprSyntax.self) {
            let name = reference.baseName.text
            guard name.hasPrefix("kSec"), let code = AppleConstantNames.code(of: name) else { return nil }
            return (name, code)
        }
        if let cast = expression.as(AsExprSyntax.self) { return constant(cast.expression) }
        if let call = expression.as(FunctionCallExprSyntax.self), call.arguments.count == 1,
            call.calledExpression.as(DeclReferenceExprSyntax.self)?.baseName.text == "String",
            let argument = call.arguments.first?.expression
        {
            return constant(argument)
        }
        return nil
    }

    /// The value an entry's expression makes known.
    static func value(_ expression: ExprSyntax) -> (TrackedDictionary.Value, name: String?) {
        if let found = constant(expression) { return (.string(found.code), found.name) }
        if let literal = expression.as(BooleanLiteralExprSyntax.self) { return (.bool(literal.literal.tokenKind == .keyword(.true)), nil) }
        if let literal = expression.as(StringLiteralExprSyntax.self), literal.segments.count == 1,
            let segment = literal.segments.first?.as(StringSegmentSyntax.self)
        {
            return (.string(segment.content.text), nil)
        }
        if let cast = expression.as(AsExprSyntax.self) { return value(cast.expression) }
        return (.unknown, nil)
    }

    /// The entries of a dictionary literal whose keys are Apple's constants.
    static func dictionary(_ literal: DictionaryExprSyntax) -> TrackedDictionary {
        var tracked = TrackedDictionary()
        guard case .elements(let elements) = literal.content else { return tracked }
        for element in elements {
            guard let key = constant(element.key) else { continue }
            let (value, name) = value(element.value)
            tracked.set(.init(code: key.code, constantName: key.name, value: value, valueName: name, position: element.key.positionAfterSkippingLeadingTrivia))
        }
        return tracked
    }

    /// The dictionary literal an expression is, through `as CFDictionary` and parentheses; nil otherwise.
    static func dictionaryLiteral(_ expression: ExprSyntax) -> DictionaryExprSyntax? {
        if let literal = expression.as(DictionaryExprSyntax.self) { return literal }
        if let cast = expression.as(AsExprSyntax.self) { return dictionaryLiteral(cast.expression) }
        if let tuple = expression.as(TupleExprSyntax.self), tuple.elements.count == 1, let inner = tuple.elements.first?.expression {
            return dictionaryLiteral(inner)
        }
        return nil
    }

    /// The variable an expression names, through `as CFDictionary` (`query as CFDictionary` → `query`); nil otherwise.
    static func variableName(_ expression: ExprSyntax) -> String? {
        if let reference = expression.as(DeclReferenceExprSyntax.self) { return reference.baseName.text }
        if let cast = expression.as(AsExprSyntax.self) { return variableName(cast.expression) }
        if let forced = expression.as(ForceUnwrapExprSyntax.self) { return variableName(forced.expression) }
        return nil
    }
}
