import JSONSchema

/// A prompt folder that cannot be used, with the file and line to fix.
public struct PromptError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The file, relative to the project.
    public var file: String
    public var location: SourceLocation?
    public var message: String

    public init(file: String, location: SourceLocation? = nil, message: String) {
        self.file = file
        self.location = location
        self.message = message
    }

    public var description: String {
        let place = location.map { ":\($0.line):\($0.column)" } ?? ""
        return "\(file)\(place): \(message)"
    }
}
