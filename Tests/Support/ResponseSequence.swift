import Foundation

/// Answers in order: the first call gets the first response, the second the second, and so on;
/// once the list is used up every call gets `afterwards` (by default the last response again).
public final class ResponseSequence: @unchecked Sendable {
    private let lock = NSLock()
    private let responses: [ScriptedResponse]
    private let afterwards: ScriptedResponse
    private var calls = 0

    public init(_ responses: [ScriptedResponse], afterwards: ScriptedResponse? = nil) {
        precondition(!responses.isEmpty || afterwards != nil, "A response sequence needs at least one response.")
        self.responses = responses
        self.afterwards = afterwards ?? responses[responses.count - 1]
    }

    public convenience init(_ responses: ScriptedResponse...) {
        self.init(responses)
    }

    /// How many responses have been handed out.
    public var callCount: Int {
        lock.withLock { calls }
    }

    /// The response for the next call.
    public func next() -> ScriptedResponse {
        lock.withLock {
            defer { calls += 1 }
            return calls < responses.count ? responses[calls] : afterwards
        }
    }

    /// A handler for `LoopbackServer` that answers from this sequence.
    public var handler: @Sendable (RecordedRequest) -> ScriptedResponse {
        { [self] _ in next() }
    }
}

/// A thread-safe counter, for handlers that count or number their calls.
public final class CallCounter: @unchecked Sendable {
    private let lock = NSLock()
    private var count = 0

    public init() {}

    /// The number of increments so far.
    public var value: Int {
        lock.withLock { count }
    }

    /// Adds one and returns the count before the increment (0 for the first call).
    @discardableResult
    public func increment() -> Int {
        lock.withLock {
            defer { count += 1 }
            return count
        }
    }
}
