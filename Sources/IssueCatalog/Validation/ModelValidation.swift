/// Rules for one value at a time. Cross-references (grants, single-issue targets, duplicates)
/// are checked by `Catalog.validate()`, which sees everything.
extension Publication {
    public func validate(at path: FieldPath = FieldPath()) throws(CatalogProblem) {
        try FieldRules.identifier(id, at: path.field("id"))
        try FieldRules.title(title, at: path.field("title"))
    }
}

extension Issue {
    public func validate(at path: FieldPath = FieldPath()) throws(CatalogProblem) {
        try FieldRules.identifier(publicationId, at: path.field("publicationId"))
        try FieldRules.identifier(id, at: path.field("id"))
        try FieldRules.title(title, at: path.field("title"))
        if let retractedAt, retractedAt < publishedAt {
            throw path.field("retractedAt").problem("must not be before publishedAt")
        }
        guard assets.count <= FieldRules.maxAssetsPerIssue else {
            throw path.field("assets").problem("more than \(FieldRules.maxAssetsPerIssue) assets")
        }
        var seen = Set<String>()
        for (index, asset) in assets.enumerated() {
            let at = path.field("assets").index(index)
            try asset.validate(at: at)
            guard seen.insert(asset.path).inserted else { throw at.field("path").problem("is listed twice") }
        }
    }
}

extension Asset {
    public func validate(at path: FieldPath = FieldPath()) throws(CatalogProblem) {
        try FieldRules.assetPath(self.path, at: path.field("path"))
        if let bytes, bytes < 0 { throw path.field("bytes").problem("must not be negative") }
        if let sha256 { try FieldRules.sha256(sha256, at: path.field("sha256")) }
    }
}

extension Product {
    /// Each kind carries exactly the fields it needs (http-api.md, product body): a field that
    /// belongs to another kind is refused rather than ignored, since it means the editor meant
    /// another kind. Auto-renewable periods never come from a duration (E5).
    public func validate(at path: FieldPath = FieldPath()) throws(CatalogProblem) {
        try FieldRules.identifier(id, at: path.field("id"))
        try FieldRules.identifier(storeProductId, at: path.field("storeProductId"))
        guard !grants.isEmpty else { throw path.field("grants").problem("must name at least one publication") }
        var seen = Set<String>()
        for (index, grant) in grants.enumerated() {
            try FieldRules.identifier(grant, at: path.field("grants").index(index))
            guard seen.insert(grant).inserted else { throw path.field("grants").index(index).problem("is listed twice") }
        }
        if let platform { try FieldRules.identifier(platform, at: path.field("platform")) }
        try requireFields(at: path)
    }

    private func requireFields(at path: FieldPath) throws(CatalogProblem) {
        let needs: (group: Bool, duration: Bool, issue: Bool)
        switch kind {
        case .autoRenewable: needs = (true, false, false)
        case .nonRenewing: needs = (false, true, false)
        case .issue: needs = (false, false, true)
        case .free: needs = (false, false, false)
        }
        try presence(subscriptionGroup != nil, needed: needs.group, at: path.field("subscriptionGroup"))
        try presence(level != nil, needed: needs.group, at: path.field("level"))
        try presence(duration != nil, needed: needs.duration, at: path.field("duration"))
        try presence(issue != nil, needed: needs.issue, at: path.field("issue"))
        if let subscriptionGroup { try FieldRules.identifier(subscriptionGroup, at: path.field("subscriptionGroup")) }
        if let level, level < 1 { throw path.field("level").problem("must be 1 or more") }
        if let issue {
            try FieldRules.identifier(issue.publicationId, at: path.field("issue").field("publicationId"))
            try FieldRules.identifier(issue.issueId, at: path.field("issue").field("issueId"))
            guard grants.contains(issue.publicationId) else {
                throw path.field("grants").problem("must include \(issue.publicationId), the publication of its issue")
            }
        }
    }

    private func presence(_ present: Bool, needed: Bool, at path: FieldPath) throws(CatalogProblem) {
        if needed && !present { throw path.problem("is required for \(kind.rawValue) products") }
        if !needed && present { throw path.problem("does not apply to \(kind.rawValue) products") }
    }
}
