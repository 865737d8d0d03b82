import Intake

extension Equipment {
    /// Words in an exercise name that show it needs this equipment.
    var telltaleWords: [String] {
        switch self {
        case .bodyweight, .mat: return []
        case .resistanceBand: return ["band", "banded"]
        case .dumbbell: return ["dumbbell", "DB"]
        case .kettlebell: return ["kettlebell", "KB"]
        case .barbell: return ["barbell", "BB"]
        case .bench: return ["bench"]
        case .rack: return ["squat rack", "power rack", "rack pull"]
        case .pullUpBar: return ["pull-up", "pullup", "chin-up", "chinup", "hanging"]
        case .cableMachine: return ["cable"]
        case .weightMachine: return ["leg press", "machine", "lat pulldown", "leg extension", "leg curl", "smith"]
        case .cardioMachine: return ["treadmill", "rower", "rowing machine", "elliptical", "stationary bike", "exercise bike", "assault bike", "stair climber"]
        case .suspensionTrainer: return ["TRX", "suspension"]
        case .jumpRope: return ["jump rope", "skipping rope", "rope skipping"]
        case .medicineBall: return ["medicine ball", "med ball", "wall ball"]
        case .stepBox: return ["box jump", "plyo box"]
        case .pool: return ["swim", "swimming", "pool"]
        }
    }

    /// `telltaleWords` prepared for searching, made once for every check to share.
    var telltaleTerms: [(word: String, term: TextMatching.SearchTerm)] {
        Self.preparedTerms[self] ?? []
    }

    private static let preparedTerms = Dictionary(uniqueKeysWithValues: allCases.map { item in
        (item, item.telltaleWords.map { (word: $0, term: TextMatching.SearchTerm($0)) })
    })
}
