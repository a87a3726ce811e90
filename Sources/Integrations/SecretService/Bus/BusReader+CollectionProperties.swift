import CSecretServiceBus

extension BusReader {
    /// The properties of `CreateCollection` (`a{sv}`): the label (`org.freedesktop.Secret.Collection.Label`),
    /// nil when not given; other properties are skipped.
    func collectionLabel() throws(BusReplyError) -> String? {
        var label: String?
        try enter("a", "{sv}")
        while try hasNextArgument() {
            try enter("e", "sv")
            let name = try string()
            if name == "org.freedesktop.Secret.Collection.Label", try variantContents() == "s" {
                try enter("v", "s")
                label = try string()
                try exit()
            } else {
                guard coffer_secret_skip(message) >= 0 else { throw .invalidArguments("a property could not be read") }
            }
            try exit()
        }
        try exit()
        return label
    }

    /// Whether another argument follows in the current container.
    private func hasNextArgument() throws(BusReplyError) -> Bool {
        var type: CChar = 0
        var contents: UnsafePointer<CChar>?
        guard coffer_secret_peek(message, &type, &contents) >= 0 else { throw .invalidArguments("the arguments could not be read") }
        return type != 0
    }
}
