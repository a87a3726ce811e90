import Foundation

/// A value bound to a `?` of a prepared statement.
enum SQLBinding {
    case blob(Data)
    case integer(Int64)
}
