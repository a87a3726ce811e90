/// A finding before disable comments and configuration have had their say.
struct Finding: Sendable {
    let rule: LintRule
    let message: String
    let point: SourcePoint
    let fixIt: FixIt?

    init(_ rule: LintRule, _ message: String, at point: SourcePoint, fix: (summary: String, edit: TextEdit)? = nil) {
        self.rule = rule
        self.message = message
        self.point = point
        self.fixIt = fix.map { FixIt(summary: $0.summary, start: $0.edit.span.start, end: $0.edit.span.end, replacement: $0.edit.replacement) }
    }

    var diagnostic: LintDiagnostic { LintDiagnostic(point: point, rule: rule, message: message, fixIt: fixIt) }
}
