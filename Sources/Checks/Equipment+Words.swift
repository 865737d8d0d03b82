import Intake

extension Equipment {
    /// Words in an exercise name that show it needs this equipment.
    var telltaleWords: [String] {
        switch self {
        case .bodyweight, .mat: return []
        case .resistanceBand: return ["band", "banded", "liga", "banda elástica"]
        case .dumbbell: return ["dumbbell", "DB", "mancuerna", "mancuernas"]
        case .kettlebell: return ["kettlebell", "KB", "pesa rusa"]
        case .barbell: return ["barbell", "BB", "con barra"]
        case .bench: return ["bench", "banco"]
        case .rack: return ["squat rack", "power rack", "rack pull"]
        case .pullUpBar: return ["pull-up", "pullup", "chin-up", "chinup", "hanging", "dominada", "dominadas"]
        case .cableMachine: return ["cable", "cable machine", "polea"]
        case .weightMachine: return ["leg press", "machine", "lat pulldown", "leg extension", "leg curl", "smith", "máquina", "prensa de piernas"]
        case .cardioMachine: return ["treadmill", "rower", "rowing machine", "elliptical", "stationary bike", "exercise bike", "assault bike", "stair climber", "caminadora", "cinta de correr", "bicicleta estática", "bicicleta fija", "elíptica", "remo en máquina"]
        case .suspensionTrainer: return ["TRX", "suspension"]
        case .jumpRope: return ["jump rope", "skipping rope", "rope skipping"]
        case .medicineBall: return ["medicine ball", "med ball", "wall ball", "balón medicinal"]
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
