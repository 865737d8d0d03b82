import Golden
import JSONSchema

extension BatchSummary {
    /// The exit status of `trainer-eval validate`: 0 when every instance is valid,
    /// 2 when any could not be read or parsed, otherwise 1.
    public var exitStatus: Int32 {
        Gate.exitStatus(passes: invalid == 0, badInput: badInput > 0).rawValue
    }
}
