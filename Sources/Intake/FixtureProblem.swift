import JSONSchema

/// One thing wrong with a fixture file, precise enough to fix without searching.
public struct FixtureProblem: Error, Hashable, Sendable, CustomStringConvertible {
    /// The file, as shown to the user (relative to the project when inside it).
    public var file: String
    public var location: SourceLocation?
    /// The field the problem is about; nil for whole-file problems.
    public var field: JSONPointer?
    public var message: String

    public init(file: String, location: SourceLocation? = nil, field: JSONPointer? = nil, message: String) {
        self.file = file
        self.location = location
        self.field = field
        self.message = message
    }

    /// `fixtures/knee-injury.json:4:10: age: 7 is below the minimum of 13`
    public var description: String {
        var text = file
        if let location { text += ":\(location.line):\(location.column)" }
        text += ": "
        if let field, !field.isRoot { text += "\(field.dottedPath(limit: 80)): " }
        return text + message
    }
}

/// The outcome of checking fixture files.
public struct FixtureCheckReport: Sendable {
    /// Fixture names that were checked (record and scenario together).
    public var fixtureNames: [String]
    /// Files read.
    public var fileCount: Int
    public var problems: [FixtureProblem]
    /// The records that decoded, each with its file, for what later checks read in them.
    public var records: [CheckedRecord] = []

    /// A record that decoded, and its file relative to the project.
    public struct CheckedRecord: Sendable {
        public var file: String
        public var record: LocalIntakeData
    }

    public var isValid: Bool { problems.isEmpty }
}
