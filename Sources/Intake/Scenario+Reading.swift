import JSONSchema

// A scenario read straight from its parsed YAML, key by key as
// `JSONValueDecoder(convertsFromSnakeCase: true)` reads it: a large suite loads
// thousands of them, and the decoder's containers cost more than the reading.
// Anything the decoder might read differently (a member of the wrong type, two keys
// that name one property) returns nil, and the decoder then reads it and names the problem.

extension Scenario {
    /// The scenario `json` holds, with `snake_case` keys; nil when it needs the decoder.
    init?(snakeCased json: JSONValue) {
        guard let members = Members(json),
              let summary = members["summary"]?.stringValue,
              let tags = members.optional("tags", Members.strings),
              let optionEdits = members.optional("optionEdits", { Members.array($0, OptionEdit.init(snakeCased:)) }),
              let confirm = members.optional("confirm", ConfirmChoice.init(snakeCased:)),
              let programEdit = members["programEdit"].flatMap(ProgramEdit.init(snakeCased:)),
              let expect = members.optional("expect", Expectations.init(snakeCased:)),
              let assertions = members.optional("assertions", { Members.array($0, Assertion.init(snakeCased:)) }),
              let canaries = members.optional("canaries", Members.strings)
        else { return nil }
        self.init(
            summary: summary, tags: tags ?? [], optionEdits: optionEdits ?? [], confirm: confirm ?? ConfirmChoice(),
            programEdit: programEdit, expect: expect ?? Expectations(), assertions: assertions ?? [], canaries: canaries ?? [])
    }
}

extension OptionEdit {
    init?(snakeCased json: JSONValue) {
        guard let members = Members(json), let feedback = members["feedback"]?.stringValue,
              let expect = members.optional("expect", OptionEditExpectations.init(snakeCased:))
        else { return nil }
        self.init(feedback: feedback, expect: expect)
    }
}

extension OptionEditExpectations {
    init?(snakeCased json: JSONValue) {
        guard let members = Members(json), let mentionAny = members.optional("mentionAny", Members.strings) else { return nil }
        self.init(mentionAny: mentionAny)
    }
}

extension ConfirmChoice {
    init?(snakeCased json: JSONValue) {
        guard let members = Members(json), let prefer = members.optional("prefer", Members.strings),
              let position = members["position"].flatMap(Members.integer)
        else { return nil }
        self.init(prefer: prefer, position: position)
    }
}

extension ProgramEdit {
    init?(snakeCased json: JSONValue) {
        guard let members = Members(json), let feedback = members["feedback"]?.stringValue,
              let expect = members.optional("expect", Expectations.init(snakeCased:))
        else { return nil }
        self.init(feedback: feedback, expect: expect)
    }
}

extension Expectations {
    init?(snakeCased json: JSONValue) {
        guard let members = Members(json),
              let maxDaysPerWeek = members.optional("maxDaysPerWeek", Members.integer),
              let maxSessionMinutes = members.optional("maxSessionMinutes", Members.integer),
              let equipment = members.optional("equipment", { Members.array($0) { $0.stringValue.flatMap(Equipment.init(rawValue:)) } }),
              let avoid = members.optional("avoid", Members.strings),
              let mention = members.optional("mention", Members.strings),
              let professionalReferral = members.optional("professionalReferral", \.boolValue),
              let language = members.optional("language", \.stringValue)
        else { return nil }
        self.init(
            maxDaysPerWeek: maxDaysPerWeek, maxSessionMinutes: maxSessionMinutes, equipment: equipment, avoid: avoid,
            mention: mention, professionalReferral: professionalReferral, language: language)
    }
}

extension Assertion {
    init?(snakeCased json: JSONValue) {
        guard let members = Members(json),
              let step = members["step"]?.stringValue.flatMap(PipelineStep.init(rawValue:)),
              let kind = members["kind"]?.stringValue.flatMap(Kind.init(rawValue:)),
              let value = members.optional("value", \.stringValue),
              let pointer = members.optional("pointer", \.stringValue),
              let equals = members.optional("equals", { $0 }),
              let min = members.optional("min", \.numberValue),
              let max = members.optional("max", \.numberValue),
              let why = members.optional("why", \.stringValue)
        else { return nil }
        self.init(step: step, kind: kind, value: value, pointer: pointer, equals: equals, min: min, max: max, why: why)
    }
}

/// An object's members by property name, as the decoder names them: when any key holds
/// an underscore, every key is converted to camel case.
private struct Members {
    private let values: [String: JSONValue]

    init?(_ json: JSONValue) {
        guard case .object(let object) = json else { return nil }
        let converts = object.members.contains { $0.key.utf8.contains(UInt8(ascii: "_")) }
        var values: [String: JSONValue] = [:]
        for member in object.members {
            let name = converts ? JSONValueDecoder.camelCase(member.key) : member.key
            // Two keys for one property: which one the decoder takes is its business.
            guard values.updateValue(member.value, forKey: name) == nil else { return nil }
        }
        self.values = values
    }

    subscript(name: String) -> JSONValue? { values[name] }

    /// An optional member as `decodeIfPresent` reads it (see `JSONValue.readIfPresent`).
    func optional<Value>(_ name: String, _ read: (JSONValue) -> Value?) -> Value?? {
        JSONValue.readIfPresent(values[name], read)
    }

    static func array<Element>(_ json: JSONValue, _ read: (JSONValue) -> Element?) -> [Element]? {
        guard case .array(let elements) = json else { return nil }
        var values: [Element] = []
        values.reserveCapacity(elements.count)
        for element in elements {
            guard let value = read(element) else { return nil }
            values.append(value)
        }
        return values
    }

    static func strings(_ json: JSONValue) -> [String]? {
        array(json, \.stringValue)
    }

    /// A whole number that fits, as the decoder reads an `Int`.
    static func integer(_ json: JSONValue) -> Int? {
        guard case .number(let number) = json, number.isWholeNumber else { return nil }
        return Int(exactly: number)
    }
}
