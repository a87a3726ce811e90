import Foundation

/// docker's `Credentials`: `{"ServerURL", "Username", "Secret"}`. Field names are matched without regard to
/// case and unknown fields are ignored, as Go's `encoding/json` decodes them.
struct DockerCredentials: Equatable {
    /// The registry's URL.
    var serverURL = ""
    /// The user name.
    var username = ""
    /// The password or token.
    var secret = ""

    /// Input that is not a credentials object; the description names the field, never a value.
    struct Malformed: Error, CustomStringConvertible {
        let description: String
    }

    /// Credentials with the given fields.
    init(serverURL: String, username: String, secret: String) {
        self.serverURL = serverURL
        self.username = username
        self.secret = secret
    }

    /// The credentials in the JSON `data`.
    init(json data: Data) throws(Malformed) {
        guard let object = try? JSONSerialization.jsonObject(with: data) else {
            throw Malformed(description: "the input is not JSON")
        }
        guard let fields = object as? [String: Any] else { throw Malformed(description: "the input is not a JSON object") }
        for (key, value) in fields {
            let field: WritableKeyPath<DockerCredentials, String>
            switch key.lowercased() {
            case "serverurl": field = \.serverURL
            case "username": field = \.username
            case "secret": field = \.secret
            default: continue
            }
            if value is NSNull { continue }
            guard let text = value as? String else {
                throw Malformed(description: "json: cannot unmarshal a non-string into Go struct field Credentials.\(key) of type string")
            }
            self[keyPath: field] = text
        }
    }

    /// The JSON `get` prints.
    var json: String { GoJSON.object([("ServerURL", serverURL), ("Username", username), ("Secret", secret)]) }
}
