import Foundation
import GooglePlayKit

/// Google Play as configured (`ISSUE_GATEWAY_GOOGLE_*`): the packages accepted, the client that
/// asks Google (E2) and, when an audience and email are configured, the push-token verifier.
package struct GooglePlayServices: Sendable {
    package var packages: Set<String>
    package var client: GooglePlayClient
    /// nil: pushes are refused (`unauthorized`), as no token could be checked.
    package var push: PushTokenVerifier?
    /// The Pub/Sub subscription pulled, when configured.
    package var pull: PubSubPullClient?

    package init(packages: Set<String>, client: GooglePlayClient, push: PushTokenVerifier?, pull: PubSubPullClient? = nil) {
        self.packages = packages; self.client = client; self.push = push; self.pull = pull
    }
}
