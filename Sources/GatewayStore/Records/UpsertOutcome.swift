public enum UpsertOutcome: Sendable, Equatable { case created, updated }
