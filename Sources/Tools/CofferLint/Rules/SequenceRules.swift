import Query
import SwiftSyntax

/// The rules that judge the calls of one function (or closure) together, in the order they run: statuses left
/// unread, an update after any failed add, a delete before an add, a single result read as an array.
enum SequenceRules {
    static func check(_ calls: [KeychainCall], facts: [SyntaxIdentifier: ScopeFacts]) -> [Finding] {
        var findings: [Finding] = []
        let byScope = Dictionary(grouping: calls, by: \.scope)
        for (scope, scopeCalls) in byScope {
            let scopeFacts = facts[scope] ?? ScopeFacts()
            let ordered = scopeCalls.sorted { $0.position < $1.position }
            for (index, call) in ordered.enumerated() {
                findings += status(of: call, facts: scopeFacts)
                findings += resultShape(of: call, facts: scopeFacts)
                let later = ordered[(index + 1)...]
                if call.function == .delete, let add = later.first(where: { $0.function == .add && sameItem(call, $0) }) {
                    findings.append(
                        Finding(
                            .deleteThenAdd,
                            "SecItemDelete then SecItemAdd (line \(add.point.line)) of the same item: the item's other attributes and its persistent reference are lost; add, and update on errSecDuplicateItem",
                            at: call.point))
                }
                if call.function == .add, call.wrapper == nil, let update = later.first(where: { $0.function == .update && isRetry($0, of: call) }) {
                    findings.append(
                        Finding(
                            .duplicateNotChecked,
                            "SecItemUpdate after SecItemAdd (line \(call.point.line)) failed for any reason: compare the status to errSecDuplicateItem first",
                            at: update.point))
                }
            }
        }
        return findings
    }

    /// Whether `update` runs because `add` failed, whatever the failure.
    private static func isRetry(_ update: KeychainCall, of add: KeychainCall) -> Bool {
        guard let failed = update.afterFailureOf, sameClass(add, update) else { return false }
        if case .bound(let name) = add.status { return failed == name }
        return failed == KeychainCall.Function.add.rawValue
    }

    private static func status(of call: KeychainCall, facts: ScopeFacts) -> [Finding] {
        guard call.wrapper == nil, call.function != .createRandomKey else { return [] }
        switch call.status {
        case .ignored:
            return [Finding(.statusIgnored, "the OSStatus of \(call.function.rawValue) is ignored: a failure passes silently", at: call.point)]
        case .bound(let name) where !facts.isRead(name, after: call.position):
            return [Finding(.statusIgnored, "the OSStatus of \(call.function.rawValue) is kept in '\(name)' and never read", at: call.point)]
        default:
            return []
        }
    }

    private static func resultShape(of call: KeychainCall, facts: ScopeFacts) -> [Finding] {
        guard call.function == .copyMatching, let result = call.resultVariable,
            let read = facts.arrayReads[result]?.first(where: { $0.position > call.position })
        else { return [] }
        let limit = call.query.entry(QueryKey.matchLimit)
        let isOne = limit == nil || limit?.value.string == QueryConstant.matchLimitOne
        guard isOne else { return [] }
        let said = limit == nil ? "without kSecMatchLimit" : "with kSecMatchLimitOne"
        return [
            Finding(
                .missingMatchLimit,
                "SecItemCopyMatching \(said) returns one item, but line \(read.point.line) reads '\(result)' as an array: it is never one",
                at: limit?.point ?? call.point)
        ]
    }

    /// Whether two calls reach the same item as far as the source shows: the same dictionary in one function, or
    /// the same class with the same service, account or server in both (the same value, or the same entry of a
    /// dictionary both were made from) and none that differ.
    static func sameItem(_ first: KeychainCall, _ second: KeychainCall) -> Bool {
        if first.scope == second.scope, let name = first.query.variableName, name == second.query.variableName { return true }
        guard sameClass(first, second), first.query.itemClassCode != nil else { return false }
        var agreeing = false
        for code in [QueryKey.service, QueryKey.account, QueryKey.server] {
            guard let one = first.query.entry(code), let other = second.query.entry(code) else { continue }
            if one.point == other.point {
                agreeing = true
                continue
            }
            guard let oneValue = one.value.string, let otherValue = other.value.string else { continue }
            if oneValue != otherValue { return false }
            agreeing = true
        }
        return agreeing
    }

    private static func sameClass(_ first: KeychainCall, _ second: KeychainCall) -> Bool {
        guard let one = first.query.itemClassCode, let other = second.query.itemClassCode else { return true }
        return one == other
    }
}
