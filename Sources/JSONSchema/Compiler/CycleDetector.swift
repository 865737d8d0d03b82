/// Finds references that always loop back to where they started without
/// applying to a smaller part of the instance: `{"$ref": "#"}` at a root, or
/// two definitions that `$ref` (or `allOf`) each other. Evaluating such a
/// schema could never finish, so it is rejected when compiled.
struct CycleDetector {
    let compiler: SchemaCompiler

    func check() throws {
        var state: [ObjectIdentifier: Bool] = [:]  // false: on the current path; true: done
        for node in compiler.allNodes {
            try visit(node, &state)
        }
    }

    private func visit(_ node: SchemaNode, _ state: inout [ObjectIdentifier: Bool]) throws {
        let id = ObjectIdentifier(node)
        if state[id] != nil { return }
        state[id] = false
        for edge in compiler.unconditionalEdges[id] ?? [] {
            let targetID = ObjectIdentifier(edge.target)
            if state[targetID] == false, let reference = edge.reference {
                throw SchemaError(.referenceCycle(reference: reference), at: compiler.describe(edge.location))
            }
            if state[targetID] == false {
                throw SchemaError(.referenceCycle(reference: "allOf"), at: compiler.describe(edge.location))
            }
            try visit(edge.target, &state)
        }
        state[id] = true
    }
}
