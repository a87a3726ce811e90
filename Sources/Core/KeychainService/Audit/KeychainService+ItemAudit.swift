import Engine
import Foundation
import KeychainModel
import KeychainOperations
import Query

extension KeychainService {
    /// Records an item call that wrote, deleted or returned a secret in the audit journal, with the items it
    /// touched and the status it ended with. A search that returned no secret is not recorded.
    ///
    /// A record that cannot be written is logged; a search that returned a secret then fails with `errSecIO` instead
    /// when the keychain refuses secret reads it cannot record (``KeychainEngine/refusesUnrecordedReads``). Writes
    /// and deletes are done by then, and answered as they ended.
    func audit(_ call: ItemCall, caller: CallerContext, trail: ItemTrail, answer: Response) -> Response {
        let event: AuditRecord.Event
        let operation: String
        let itemClass: ItemClass
        switch call {
        case .add(let add): (event, operation, itemClass) = (.itemAdded, "add", add.itemClass)
        case .search(let search):
            guard trail.secretRead, answer.auditStatus == 0 else { return answer }
            (event, operation, itemClass) = (.secretRead, "copyMatching", search.itemClass)
        case .update(let update): (event, operation, itemClass) = (.itemUpdated, "update", update.search.itemClass)
        case .delete(let delete): (event, operation, itemClass) = (.itemDeleted, "delete", delete.search.itemClass)
        }
        let recorded = recordAudit(
            AuditRecord(
                time: Date(), event: event, operation: operation, caller: caller.identity, accessGroups: caller.groupList,
                itemClass: (trail.itemClass ?? itemClass).rawValue, items: trail.references, status: answer.auditStatus))
        return event == .secretRead ? refusing(answer, unless: recorded) : answer
    }
}
