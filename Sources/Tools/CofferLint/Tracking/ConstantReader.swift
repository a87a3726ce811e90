import Query
import SwiftSyntax

/// Apple's `kSec…` constants in source: bare, `as String`, `String(…)`, `as CFString`.
enum ConstantReader {
    /// The constant an expression names, with its string; nil for anything else.
    static func constant(_ expression: ExprSyntax) -> (name: String, code: String)? {
        if let reference = expression.as(DeclReferenceExprSyntax.self) {
            let name = reference.baseName.text
            guard name.hasPrefix("kSec"), let code = AppleConstantNames.code(of: name) else { return nil }
            return (name, code)
        }
        if let cast = expression.as(AsExprSyntax.self) { return constant(cast.expression) }
        if let forced = expression.as(ForceUnwrapExprSyntax.self) { return constant(forced.expression) }
        if let call = expression.as(FunctionCallExprSyntax.self), call.arguments.count == 1,
            call.calledExpression.as(DeclReferenceExprSyntax.self)?.baseName.text == "String",
            let argument = call.arguments.first?.expression
        {
            return constant(argument)
        }
        return nil
    }

    /// The reference to the constant an expression names (`kSecAttrAccessibleAlways` in
    /// `kSecAttrAccessibleAlways as String`), so a fix can replace the name alone.
    static func reference(_ expression: ExprSyntax) -> DeclReferenceExprSyntax? {
        guard constant(expression) != nil else { return nil }
        if let reference = expression.as(DeclReferenceExprSyntax.self) { return reference }
        if let cast = expression.as(AsExprSyntax.self) { return reference(cast.expression) }
        if let forced = expression.as(ForceUnwrapExprSyntax.self) { return reference(forced.expression) }
        return expression.as(FunctionCallExprSyntax.self)?.arguments.first.flatMap { reference($0.expression) }
    }

    /// The variable an expression names, through casts, `!`, `&` and `self.` (`query as CFDictionary` → `query`).
    static func variableName(_ expression: ExprSyntax) -> String? {
        if let reference = expression.as(DeclReferenceExprSyntax.self) { return reference.baseName.text }
        if let cast = expression.as(AsExprSyntax.self) { return variableName(cast.expression) }
        if let forced = expression.as(ForceUnwrapExprSyntax.self) { return variableName(forced.expression) }
        if let inOut = expression.as(InOutExprSyntax.self) { return variableName(inOut.expression) }
        if let member = expression.as(MemberAccessExprSyntax.self), member.base?.as(DeclReferenceExprSyntax.self)?.baseName.tokenKind == .keyword(.self) {
            return member.declName.baseName.text
        }
        return nil
    }

    /// The expression inside casts, `!`, `try` and one pair of parentheses.
    static func unwrapped(_ expression: ExprSyntax) -> ExprSyntax {
        if let cast = expression.as(AsExprSyntax.self) { return unwrapped(cast.expression) }
        if let forced = expression.as(ForceUnwrapExprSyntax.self) { return unwrapped(forced.expression) }
        if let attempt = expression.as(TryExprSyntax.self) { return unwrapped(attempt.expression) }
        if let tuple = expression.as(TupleExprSyntax.self), tuple.elements.count == 1, let inner = tuple.elements.first?.expression {
            return unwrapped(inner)
        }
        return expression
    }

    /// The name a call calls: `f(…)` → `f`, `self.f(…)`, `Type.f(…)` or `object.f(…)` → `f`.
    static func calledName(_ call: FunctionCallExprSyntax) -> String? {
        if let reference = call.calledExpression.as(DeclReferenceExprSyntax.self) { return reference.baseName.text }
        if let member = call.calledExpression.as(MemberAccessExprSyntax.self) { return member.declName.baseName.text }
        return nil
    }
}
