import JSONSchema

extension Array where Element == JSONValue {
    /// The elements with each object's members changed by `change`, which is also given
    /// the element's position (a program's sessions, say); anything else stays as it is.
    func changingObjects(_ change: (inout JSONObject, Int) -> Void) -> [JSONValue] {
        enumerated().map { index, element in
            guard case .object(var fields) = element else { return element }
            change(&fields, index)
            return .object(fields)
        }
    }
}
