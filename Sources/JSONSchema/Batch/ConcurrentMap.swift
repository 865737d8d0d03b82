import Foundation

extension Array where Element: Sendable {
    /// `map` with the elements transformed side by side on every core, results in
    /// order. When several transforms throw, the error of the first element is thrown.
    public func concurrentMap<T: Sendable, Failure: Error>(
        _ transform: @Sendable (Element) throws(Failure) -> T
    ) throws(Failure) -> [T] {
        let slots = ResultSlots<T, Failure>(count: count)
        DispatchQueue.concurrentPerform(iterations: count) { index in
            do throws(Failure) {
                slots[index] = .success(try transform(self[index]))
            } catch {
                slots[index] = .failure(error)
            }
        }
        return try slots.values.map { result throws(Failure) in try result.get() }
    }
}

/// Results written by concurrent workers, one slot each.
private final class ResultSlots<Value: Sendable, Failure: Error>: @unchecked Sendable {
    private let lock = NSLock()
    private var slots: [Result<Value, Failure>?]

    init(count: Int) {
        slots = Array(repeating: nil, count: count)
    }

    subscript(index: Int) -> Result<Value, Failure>? {
        get { lock.withLock { slots[index] } }
        set { lock.withLock { slots[index] = newValue } }
    }

    var values: [Result<Value, Failure>] { lock.withLock { slots.compactMap { $0 } } }
}
