/// The equipment vocabulary shared by scenarios, the program schema and the checks.
public enum Equipment: String, Codable, Hashable, Sendable, CaseIterable {
    case bodyweight
    case mat
    case resistanceBand = "resistance-band"
    case dumbbell
    case kettlebell
    case barbell
    case bench
    case rack
    case pullUpBar = "pull-up-bar"
    case cableMachine = "cable-machine"
    case weightMachine = "weight-machine"
    case cardioMachine = "cardio-machine"
    case suspensionTrainer = "suspension-trainer"
    case jumpRope = "jump-rope"
    case medicineBall = "medicine-ball"
    case stepBox = "step-box"
    case pool
}
