import JSONSchema

extension BatchSummary {
    /// The exit status of `trainer-eval validate`: 0 when every instance is valid,
    /// 2 when any could not be read or parsed, otherwise 1.
    public var exitStatus: Int32 {
        if badInput > 0 { return 2 }
        return invalid > 0 ? 1 : 0
    }
}
