import ArgumentParser
import Console
import Golden

/// Turns library errors into a message on standard error and exit code 2.
enum Failure {
    @discardableResult
    static func exitingOnError<T>(_ body: () throws -> T) throws -> T {
        do {
            return try body()
        } catch let exit as ExitCode {
            throw exit
        } catch {
            Terminal.standardError.writeLine("error: \(error)")
            throw ExitCode.badInput
        }
    }

    @discardableResult
    static func exitingOnError<T>(_ body: () async throws -> T) async throws -> T {
        do {
            return try await body()
        } catch let exit as ExitCode {
            throw exit
        } catch {
            Terminal.standardError.writeLine("error: \(error)")
            throw ExitCode.badInput
        }
    }
}

extension ExitCode {
    /// Bad input, as `Gate` numbers it: a usage error, a broken file, a provider that cannot be reached.
    static let badInput = ExitCode(Gate.ExitStatus.badInput.rawValue)
}
