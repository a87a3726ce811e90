import Engine
import KeychainModel
import KeychainOperations
import Query

extension KeychainService {
    /// Answers ``Request/addEach(_:)``: each dictionary is parsed as `SecItemAdd` parses it (a refused one gets
    /// its own status), and the rest are added in one transaction.
    func addEach(_ queries: [QueryDictionary], caller: CallerContext) -> Response {
        guard queries.count <= Request.maximumAddEachCount else {
            return .failure(.param, reason: "a bulk add carries at most \(Request.maximumAddEachCount) items, not \(queries.count)")
        }
        var outcomes = [KeychainStatus](repeating: .success, count: queries.count)
        var parsed: [(index: Int, request: AddRequest)] = []
        parsed.reserveCapacity(queries.count)
        for (index, query) in queries.enumerated() {
            do {
                parsed.append((index, try QueryParser.parseAdd(query)))
            } catch {
                outcomes[index] = error.status
            }
        }
        do {
            let added = try run { () throws(EngineRefusal) in try openedEngine().addEach(parsed.map(\.request), caller: caller) }
            for (position, outcome) in added.enumerated() { outcomes[parsed[position].index] = outcome }
        } catch {
            return Response(error)
        }
        return .addOutcomes(outcomes)
    }
}
