import Foundation

/// Compiled regular expressions by pattern, shared across threads and across the
/// run: a scenario's patterns are compiled once when the fixture loads (to report a
/// bad one) and reused by every check that runs them. A compiled
/// `NSRegularExpression` is safe to share across threads.
public final class CompiledPatterns: Sendable {
    public static let shared = CompiledPatterns()

    private struct Key: Hashable, Sendable {
        var pattern: String
        var options: UInt
    }

    private let cache = SharedCache<Key, Result<NSRegularExpression, NSError>>()

    /// The compiled pattern, or nil when it does not compile.
    public func regex(_ pattern: String, options: NSRegularExpression.Options = []) -> NSRegularExpression? {
        try? compile(pattern, options: options)
    }

    /// The compiled pattern, or why it does not compile.
    public func compile(_ pattern: String, options: NSRegularExpression.Options = []) throws -> NSRegularExpression {
        try cache.value(for: Key(pattern: pattern, options: options.rawValue)) {
            Result { () throws(NSError) in
                do { return try NSRegularExpression(pattern: pattern, options: options) } catch { throw error as NSError }
            }
        }.get()
    }
}

/// Values computed once per key and shared across threads. Two threads may both
/// compute a missing value; the computations are pure, so either result will do.
/// Reads take a shared lock: once a run is warm nearly every call is a read, and
/// readers on every core would otherwise queue behind one another.
public final class SharedCache<Key: Hashable & Sendable, Value>: @unchecked Sendable {
    private let lock: UnsafeMutablePointer<pthread_rwlock_t>
    private var values: [Key: Value] = [:]

    public init() {
        lock = .allocate(capacity: 1)
        pthread_rwlock_init(lock, nil)
    }

    deinit {
        pthread_rwlock_destroy(lock)
        lock.deallocate()
    }

    public func value(for key: Key, computing compute: () -> Value) -> Value {
        pthread_rwlock_rdlock(lock)
        let known = values[key]
        pthread_rwlock_unlock(lock)
        if let known { return known }
        let value = compute()
        pthread_rwlock_wrlock(lock)
        values[key] = value
        pthread_rwlock_unlock(lock)
        return value
    }
}
