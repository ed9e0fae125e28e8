import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// POSTs a JSON body and waits for the answer: how the simulator delivers notifications to a
/// gateway and how the CLI talks to a running simulator. Blocking: worker threads and the CLI only.
enum NotificationPoster {
    struct Answer: Sendable {
        var status: Int
        var body: Data
    }

    enum Failure: Error, CustomStringConvertible {
        case transport(String)
        var description: String { if case .transport(let m) = self { m } else { "" } }
    }

    /// How long a gateway or simulator gets to answer one notification.
    static let timeout: TimeInterval = 15

    static func post(_ body: Data, to url: URL, timeout: TimeInterval = timeout) throws(Failure) -> Answer {
        var request = URLRequest(url: url, timeoutInterval: timeout)
        request.httpMethod = "POST"
        request.httpBody = body
        request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        let result = Mutex<Result<Answer, Failure>?>(nil)
        let done = DispatchSemaphore(value: 0)
        let session = URLSession(configuration: .ephemeral)
        defer { session.finishTasksAndInvalidate() }
        session.dataTask(with: request) { data, response, error in
            let outcome: Result<Answer, Failure>
            if let http = response as? HTTPURLResponse, error == nil {
                outcome = .success(Answer(status: http.statusCode, body: data ?? Data()))
            } else {
                outcome = .failure(.transport(error.map { "\($0.localizedDescription)" } ?? "no HTTP answer"))
            }
            result.withLock { $0 = outcome }
            done.signal()
        }.resume()
        done.wait()
        switch result.withLock({ $0 }) {
        case .success(let answer): return answer
        case .failure(let failure): throw failure
        case nil: throw .transport("no answer")
        }
    }
}

import Synchronization
