// The issue-gateway executable: HTTP server, API, storage, App Store client and CLI.
// The CLI entry point replaces this file in the foundation issue.
import IssueCatalog
import Entitle

print("issue-gateway: nothing here yet")
