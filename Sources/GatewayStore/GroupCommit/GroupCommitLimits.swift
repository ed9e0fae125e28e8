/// How many write units of work may share one commit, and for how long a group stays open
/// (decision 109). A group never waits for units to come: it takes the writers that queued while
/// the one before it was committing, up to these limits, and commits when none is left waiting.
public struct GroupCommitLimits: Sendable, Equatable {
    /// Units of work in one commit at most; 1 commits each unit alone.
    public var maxUnits: Int
    /// A group open this long commits after its current unit even while others wait, so a unit's
    /// caller is answered within about this much more than its turn and the commit.
    public var maxOpen: Duration

    public static let defaultMaxUnits = 64
    public static let defaultMaxOpenMilliseconds = 20

    public init(maxUnits: Int = GroupCommitLimits.defaultMaxUnits,
                maxOpen: Duration = .milliseconds(GroupCommitLimits.defaultMaxOpenMilliseconds)) {
        self.maxUnits = max(1, maxUnits)
        self.maxOpen = maxOpen
    }
}
