import Foundation

/// An item read from the provider being imported from: everything Coffer keeps of it.
struct SourceItem {
    /// Its object path at the provider (named in the report, which never shows a label, attribute or secret).
    let path: String
    /// The label.
    let label: String
    /// The attributes.
    let attributes: [String: String]
    /// The secret's content type (`text/plain` when the provider gave none).
    let contentType: String
    /// When it was created, in seconds since 1970; nil when the provider does not say.
    let created: UInt64?
    /// The secret.
    let secret: Data
}

/// The properties of an item that `Properties.GetAll` answers (`a{sv}`); those of other types are skipped.
struct SourceItemProperties {
    var label = ""
    var attributes: [String: String] = [:]
    var created: UInt64?
    var locked = false

    /// Reads the answer of `GetAll` on `org.freedesktop.Secret.Item`.
    init(reading answer: BusReader) throws(BusReplyError) {
        try answer.enter("a", "{sv}")
        while try answer.nextType() != nil {
            try answer.enter("e", "sv")
            let name = try answer.string()
            let contents = try answer.variantContents()
            switch (name, contents) {
            case ("Label", "s"):
                try answer.enter("v", "s")
                label = try answer.string()
                try answer.exit()
            case ("Attributes", "a{ss}"):
                try answer.enter("v", "a{ss}")
                attributes = try answer.stringDictionary()
                try answer.exit()
            case ("Created", "t"):
                try answer.enter("v", "t")
                let seconds = try answer.uint64()
                created = seconds > 0 ? seconds : nil
                try answer.exit()
            case ("Locked", "b"):
                try answer.enter("v", "b")
                locked = try answer.bool()
                try answer.exit()
            default:
                try answer.skip()
            }
            try answer.exit()
        }
        try answer.exit()
    }
}
