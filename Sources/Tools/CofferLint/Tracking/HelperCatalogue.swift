/// What the package's own helpers do with query dictionaries, gathered from every file before any is judged:
/// functions and properties that return a dictionary (`baseQuery(service:)`, `var query: [String: Any] { … }`),
/// functions that pass a parameter on to a SecItem call (`add(_ attributes:)`), and string constants
/// (`static let service = "com.example"`). A name two helpers share with different results is dropped, so a
/// guess never stands in for what the source shows.
struct HelperCatalogue: Sendable {
    /// A function that hands its parameter to a SecItem call.
    struct Wrapper: Sendable {
        let function: KeychainCall.Function
        /// Which dictionary of the SecItem call the parameter becomes (0: the query or attributes, 1: an update's
        /// changes), and the parameter's position and label.
        let role: Int
        let parameterIndex: Int
        let parameterLabel: String?
        /// The entries the wrapper adds to what it is given, and the class it was given when it names one.
        let added: TrackedDictionary
    }

    private var dictionaries: [String: TrackedDictionary] = [:]
    private var wrappersByName: [String: [Wrapper]] = [:]
    private var texts: [String: String] = [:]
    private var ambiguous: Set<String> = []

    /// The dictionary the helper `name` returns, when exactly one helper of that name returns one.
    func returnedDictionary(named name: String) -> TrackedDictionary? { dictionaries[name] }

    /// The SecItem calls the helper `name` passes its parameters to.
    func wrappers(named name: String) -> [Wrapper] { wrappersByName[name] ?? [] }

    /// The string constant `name`, when exactly one declares it.
    func text(named name: String) -> String? { texts[name] }

    mutating func recordDictionary(_ dictionary: TrackedDictionary, named name: String) {
        guard !dictionary.entries.isEmpty, !ambiguous.contains(name) else { return }
        if let earlier = dictionaries[name], earlier.entries.map(\.point) != dictionary.entries.map(\.point) {
            dictionaries[name] = nil
            ambiguous.insert(name)
            return
        }
        dictionaries[name] = dictionary
    }

    mutating func recordWrapper(_ wrapper: Wrapper, named name: String) {
        let known = wrappersByName[name] ?? []
        guard !known.contains(where: { $0.function == wrapper.function && $0.role == wrapper.role && $0.parameterIndex == wrapper.parameterIndex })
        else { return }
        wrappersByName[name] = known + [wrapper]
    }

    mutating func recordText(_ text: String, named name: String) {
        guard !ambiguous.contains("text:" + name) else { return }
        if let earlier = texts[name], earlier != text {
            texts[name] = nil
            ambiguous.insert("text:" + name)
            return
        }
        texts[name] = text
    }
}

extension HelperCatalogue {
    /// Adds what another file's helpers do.
    mutating func absorb(_ other: HelperCatalogue) {
        for (name, dictionary) in other.dictionaries { recordDictionary(dictionary, named: name) }
        for (name, wrappers) in other.wrappersByName { for wrapper in wrappers { recordWrapper(wrapper, named: name) } }
        for (name, text) in other.texts { recordText(text, named: name) }
        ambiguous.formUnion(other.ambiguous)
        for name in other.ambiguous {
            dictionaries[name] = nil
            if name.hasPrefix("text:") { texts[String(name.dropFirst(5))] = nil }
        }
    }
}
