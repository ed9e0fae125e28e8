import Wire

/// One publication's issue list items as flat bytes: each issue's unchanging head
/// (`{"publicationId":…,"free":…,`) and tail (`,"assets":[…]}`) in one buffer, with the reader's
/// `"entitled":…,"reasons":[…]` going between them (http-api.md, Issue list item; E20). A list is
/// then a run of plain appends out of two buffers: copying `IssueFragment`s and the reasons'
/// arrays per item cost more in reference counting than the bytes themselves (BENCHMARKS.md).
package struct IssueListItems: Sendable {
    private let bytes: [UInt8]
    /// Four offsets into `bytes` per issue, by `indexInPublication`: head start, head end, tail
    /// start, tail end (the reader's reasons go between head and tail).
    private let bounds: [Int32]

    package init(_ fragments: [IssueFragment]) {
        var bytes: [UInt8] = [], bounds: [Int32] = []
        bounds.reserveCapacity(fragments.count * 4)
        for fragment in fragments {
            bounds.append(Int32(bytes.count))
            bytes.append(UInt8(ascii: "{"))
            bytes.append(contentsOf: fragment.members)
            bytes.append(UInt8(ascii: ","))
            bounds.append(Int32(bytes.count))
            bounds.append(Int32(bytes.count))
            bytes.append(UInt8(ascii: ","))
            bytes.append(contentsOf: fragment.assetsMember)
            bytes.append(UInt8(ascii: "}"))
            bounds.append(Int32(bytes.count))
        }
        self.bytes = bytes
        self.bounds = bounds
    }

    package var count: Int { bounds.count / 4 }

    /// `{"issues":[…]}` for the items `walk` names as (indexInPublication, reasonSet); nil when it
    /// names an index this publication does not hold.
    package func listBody(capacity: Int, _ walk: ((Int, UInt16) -> Void) -> Void) -> [UInt8]? {
        var out: [UInt8] = []
        out.reserveCapacity(capacity)
        out.append(contentsOf: Self.opening)
        var complete = true, first = true
        bytes.withUnsafeBufferPointer { items in
            bounds.withUnsafeBufferPointer { bounds in
                ReasonMembers.flat.withUnsafeBufferPointer { reasons in
                    ReasonMembers.flatBounds.withUnsafeBufferPointer { reasonBounds in
                        walk { index, reasonSet in
                            guard index >= 0, index < bounds.count / 4 else { complete = false; return }
                            if !first { out.append(UInt8(ascii: ",")) }
                            first = false
                            let b = index * 4, r = Int(reasonSet) * 2
                            out.append(contentsOf: UnsafeBufferPointer(rebasing: items[Int(bounds[b])..<Int(bounds[b + 1])]))
                            out.append(contentsOf: UnsafeBufferPointer(rebasing: reasons[Int(reasonBounds[r])..<Int(reasonBounds[r + 1])]))
                            out.append(contentsOf: UnsafeBufferPointer(rebasing: items[Int(bounds[b + 2])..<Int(bounds[b + 3])]))
                        }
                    }
                }
            }
        }
        out.append(contentsOf: Self.closing)
        return complete ? out : nil
    }

    private static let opening = Array(#"{"issues":["#.utf8)
    private static let closing = Array("]}".utf8)
}

extension ReasonMembers {
    /// `rendered` in one buffer, with each reason set's start and end at `2 * reasonSet`.
    package static let flat: [UInt8] = rendered.flatMap { $0 }
    package static let flatBounds: [Int32] = {
        var bounds: [Int32] = [], offset: Int32 = 0
        for members in rendered {
            bounds.append(offset)
            offset += Int32(members.count)
            bounds.append(offset)
        }
        return bounds
    }()
}
