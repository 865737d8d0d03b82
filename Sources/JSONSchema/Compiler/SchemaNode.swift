/// One compiled schema (an object or boolean schema at one location): its
/// keywords, precompiled for evaluation, in the order the schema lists them
/// (the unevaluated keywords last, as they depend on the others).
final class SchemaNode: @unchecked Sendable {
    /// The keywords in schema order, and split by the instance type they apply
    /// to (for the fast path, which then extracts the instance's payload once
    /// per node). Keywords are plain values, so these buffers are read without
    /// reference counting or exclusivity checks; they are set once, while compiling.
    struct Plan {
        var all = UnsafeMutableBufferPointer<Keyword>(start: nil, count: 0)
        var any = UnsafeMutableBufferPointer<Keyword>(start: nil, count: 0)
        var number = UnsafeMutableBufferPointer<Keyword>(start: nil, count: 0)
        var string = UnsafeMutableBufferPointer<Keyword>(start: nil, count: 0)
        var array = UnsafeMutableBufferPointer<Keyword>(start: nil, count: 0)
        var object = UnsafeMutableBufferPointer<Keyword>(start: nil, count: 0)
        /// True when a keyword here needs the annotations of its siblings (`unevaluated*`).
        var needsAnnotations = false

        // The commonest keywords, checked inline by the fast path and so left out of
        // the lists above (a call per keyword per value costs more than the check).
        /// `type`.
        var types = TypeSet.all
        /// `minimum` and `maximum`.
        var minimum = -Double.infinity, maximum = Double.infinity
        /// `minLength` and `maxLength`.
        var minLength = 0, maxLength = Int.max
        /// True when the inline checks are all there is to this node: then a
        /// member or element is checked without entering it.
        var isLeaf = false

        /// Takes `keyword` over when it is one of the inline checks; false otherwise.
        mutating func takeOver(_ keyword: Keyword) -> Bool {
            switch keyword {
            case .type(let allowed): types = allowed
            case .minimum(let limit): minimum = limit
            case .maximum(let limit): maximum = limit
            case .minLength(let limit): minLength = limit
            case .maxLength(let limit): maxLength = limit
            default: return false
            }
            return true
        }

        /// The inline checks: `type`, `minimum`/`maximum`, `minLength`/`maxLength`.
        @inline(__always)
        func passesInlineChecks(_ instance: JSONValue) -> Bool {
            guard types.rawValue & TypeSet.of(instance).rawValue != 0 else { return false }
            switch instance {
            case .number(let value): return value >= minimum && value <= maximum
            case .string(let text): return Evaluator.hasAtLeast(text, minLength) && Evaluator.hasAtMost(text, maxLength)
            default: return true
            }
        }
    }

    let plan: UnsafeMutablePointer<Plan>

    /// `false`, the schema nothing is valid against.
    let isFalse: Bool
    /// The schema resource this node belongs to.
    unowned(unsafe) let resource: SchemaResource
    /// True when this node is its resource's root (so evaluating it enters the resource).
    let isResourceRoot: Bool
    /// The node's absolute location (`uri#/pointer`), when the schema has a real base URI.
    let absoluteLocation: String?

    init(isFalse: Bool, resource: SchemaResource, isResourceRoot: Bool, absoluteLocation: String?) {
        self.isFalse = isFalse
        self.resource = resource
        self.isResourceRoot = isResourceRoot
        self.absoluteLocation = absoluteLocation
        plan = .allocate(capacity: 1)
        plan.initialize(to: Plan())
    }

    deinit {
        let plan = plan.pointee
        for buffer in [plan.all, plan.any, plan.number, plan.string, plan.array, plan.object] {
            buffer.deallocate()
        }
        self.plan.deallocate()
    }

    /// The keywords in schema order.
    var keywords: UnsafeMutableBufferPointer<Keyword> { plan.pointee.all }

    var needsAnnotations: Bool { plan.pointee.needsAnnotations }

    func setKeywords(_ keywords: [Keyword]) {
        var compiled = Plan()
        var rest: [Keyword] = []
        for keyword in keywords where !compiled.takeOver(keyword) { rest.append(keyword) }
        func buffer(_ category: Keyword.Category?) -> UnsafeMutableBufferPointer<Keyword> {
            let selected = (category == nil ? keywords : rest).filter { keyword in
                if category != nil, case .required(let names) = keyword, names.object.isFolded { return false }
                return category == nil || keyword.category == category
            }
            let buffer = UnsafeMutableBufferPointer<Keyword>.allocate(capacity: selected.count)
            _ = buffer.initialize(from: selected)
            return buffer
        }
        compiled.all = buffer(nil)
        compiled.any = buffer(.any)
        compiled.number = buffer(.number)
        compiled.string = buffer(.string)
        compiled.array = buffer(.array)
        compiled.object = buffer(.object)
        compiled.needsAnnotations = keywords.contains {
            switch $0 {
            case .unevaluatedItems, .unevaluatedProperties: return true
            default: return false
            }
        }
        compiled.isLeaf = !isFalse && !isResourceRoot && !compiled.needsAnnotations
            && [compiled.any, compiled.number, compiled.string, compiled.array, compiled.object].allSatisfy(\.isEmpty)
        plan.pointee = compiled
    }
}

/// A schema resource (a document root or a subschema with `$id`): the unit the
/// dynamic scope is made of.
final class SchemaResource: @unchecked Sendable {
    let uri: String
    /// This resource's `$dynamicAnchor`s, compiled.
    var dynamicAnchors: [String: SchemaNode] = [:]

    init(uri: String) {
        self.uri = uri
    }
}

/// A reference to a node compiled elsewhere; unowned because references can
/// form cycles and the schema keeps every node alive.
final class NodeReference: @unchecked Sendable {
    unowned(unsafe) var target: SchemaNode
    /// The reference text as written, for messages.
    let text: String
    /// For a `$dynamicRef` whose initial target has a matching `$dynamicAnchor`: that name.
    let dynamicAnchor: String?

    init(target: SchemaNode, text: String, dynamicAnchor: String?) {
        self.target = target
        self.text = text
        self.dynamicAnchor = dynamicAnchor
    }
}
