import ArgumentParser

/// `--min-agreement`: turns a measure against reviewers' labels into a gate.
struct AgreementGateOptions: ParsableArguments {
    @Option(
        name: .customLong("min-agreement"),
        help: ArgumentHelp("Exit 1 when the share of labelled outputs on which the reviewers and the measured judge (the checks, or a rubric's judge) agree is below this (0 to 1).", valueName: "share"))
    var minAgreement: Double?

    func validate() throws {
        if let minAgreement, !(0...1).contains(minAgreement) {
            throw ValidationError("--min-agreement is a share from 0 to 1, such as 0.9; got \(minAgreement).")
        }
    }
}
