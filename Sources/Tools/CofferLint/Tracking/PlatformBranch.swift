import SwiftSyntax

/// Which `#if os(…)` branches a platform compiles, for the rule that Apple code takes its macOS branch on Linux.
enum PlatformBranch {
    /// Whether `node` sits in a `#if` clause that macOS and Linux both take while iOS takes a different one.
    static func isMacOSBranchOnLinux(_ node: some SyntaxProtocol) -> Bool {
        var current = Syntax(node).parent
        while let candidate = current {
            if let clause = candidate.as(IfConfigClauseSyntax.self), let block = clause.parent?.as(IfConfigClauseListSyntax.self) {
                let clauses = Array(block)
                if let taken = clauses.firstIndex(where: { $0.id == clause.id }),
                    chosen(clauses, on: "macOS") == taken, chosen(clauses, on: "Linux") == taken,
                    let onIOS = chosen(clauses, on: "iOS"), onIOS != taken
                {
                    return true
                }
            }
            current = candidate.parent
        }
        return false
    }

    /// The clause a platform compiles, or nil when none (or when a condition cannot be decided).
    private static func chosen(_ clauses: [IfConfigClauseSyntax], on platform: String) -> Int? {
        for (index, clause) in clauses.enumerated() {
            guard let condition = clause.condition else { return index }
            switch evaluate(condition, on: platform) {
            case true?: return index
            case false?: continue
            case nil: return nil
            }
        }
        return nil
    }

    /// `os(…)`, `canImport(…)` of the modules that tell platforms apart, `!`, `&&`, `||` and parentheses; nil for
    /// anything else (flags, other modules).
    private static func evaluate(_ condition: ExprSyntax, on platform: String) -> Bool? {
        if let call = condition.as(FunctionCallExprSyntax.self), call.calledExpression.as(DeclReferenceExprSyntax.self)?.baseName.text == "os",
            let name = call.arguments.first?.expression.as(DeclReferenceExprSyntax.self)?.baseName.text
        {
            return name == platform
        }
        if let call = condition.as(FunctionCallExprSyntax.self), call.calledExpression.as(DeclReferenceExprSyntax.self)?.baseName.text == "canImport",
            let module = call.arguments.first?.expression.as(DeclReferenceExprSyntax.self)?.baseName.text
        {
            // UIKit stands for iOS and AppKit for macOS in Apple code; Security and its neighbours are on all three.
            switch module {
            case "UIKit": return platform == "iOS"
            case "AppKit": return platform == "macOS"
            case "Security", "LocalAuthentication", "CryptoKit", "Foundation": return true
            default: return nil
            }
        }
        if let prefix = condition.as(PrefixOperatorExprSyntax.self), prefix.operator.text == "!" {
            return evaluate(prefix.expression, on: platform).map { !$0 }
        }
        if let tuple = condition.as(TupleExprSyntax.self), tuple.elements.count == 1, let inner = tuple.elements.first?.expression {
            return evaluate(inner, on: platform)
        }
        if let infix = condition.as(InfixOperatorExprSyntax.self), let op = infix.operator.as(BinaryOperatorExprSyntax.self) {
            let left = evaluate(infix.leftOperand, on: platform)
            let right = evaluate(infix.rightOperand, on: platform)
            switch op.operator.text {
            case "&&":
                if left == false || right == false { return false }
                guard let left, let right else { return nil }
                return left && right
            case "||":
                if left == true || right == true { return true }
                guard let left, let right else { return nil }
                return left || right
            default: return nil
            }
        }
        return nil
    }
}
