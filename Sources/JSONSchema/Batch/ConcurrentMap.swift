import Foundation

extension Array where Element: Sendable {
    /// `map` with the elements transformed side by side on every core, results in
    /// order. When several transforms throw, the error of the first element is thrown.
    public func concurrentMap<T: Sendable, Failure: Error>(
        _ transform: @Sendable (Element) throws(Failure) -> T
    ) throws(Failure) -> [T] {
        let slots = ResultSlots<T, Failure>(count: count)
        defer { slots.deallocate() }
        DispatchQueue.concurrentPerform(iterations: count) { index in
            do throws(Failure) {
                slots.set(index, .success(try transform(self[index])))
            } catch {
                slots.set(index, .failure(error))
            }
        }
        return try slots.values.map { result throws(Failure) in try result.get() }
    }
}

/// One result slot per element. Each worker writes only its own slots, and
/// `concurrentPerform` returns after every write, so no lock is needed.
private struct ResultSlots<Value: Sendable, Failure: Error>: @unchecked Sendable {
    private let slots: UnsafeMutableBufferPointer<Result<Value, Failure>>

    init(count: Int) {
        slots = .allocate(capacity: count)
    }

    func set(_ index: Int, _ result: Result<Value, Failure>) {
        (slots.baseAddress! + index).initialize(to: result)
    }

    /// The results, once every slot is set.
    var values: [Result<Value, Failure>] { Array(slots) }

    func deallocate() {
        _ = slots.deinitialize()
        slots.deallocate()
    }
}
