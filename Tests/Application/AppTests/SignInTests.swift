import App
import AppCore
import Dispatch
import Foundation
import Learners
import Offloading
import Testing

@Suite("Signing in with a password")
struct SignInTests {
    @Test("password checks take turns: a sign-in beyond the queue is told to retry, and is not a wrong password")
    func busyGateRefusesWithARetry() async throws {
        let box = try await AppSandbox(mandarin: false)
        defer { box.dir.remove() }
        let gate = WorkGate(limit: 1, waiting: 0)
        let learning = LearningService(
            store: box.learning.store, catalog: box.catalog, mandarin: box.app.dictionary,
            days: LocalDays(timeZone: TimeZone(identifier: "UTC")!), passwordChecks: gate)
        let (ann, _) = try await learning.addLearner(named: "ann")
        try await learning.setPassword("correct horse battery", for: ann)

        // Another check holds the only place.
        let release = DispatchSemaphore(value: 0)
        let started = DispatchSemaphore(value: 0)
        let holder = Task {
            try await gate.run {
                started.signal()
                release.wait()
            }
        }
        await Task.detached { started.wait() }.value
        do {
            _ = try await learning.signIn(name: "ann", password: "correct horse battery")
            Issue.record("a sign-in ran while the gate was full")
        } catch let failure as Failure {
            #expect(failure.kind == .tooManyRequests && failure.code == .signInBusy)
        }
        release.signal()
        try await holder.value

        let signedIn = try await learning.signIn(name: "ann", password: "correct horse battery")
        #expect(signedIn?.learner.id == ann.id)
        #expect(try await learning.signIn(name: "ann", password: "wrong horse battery") == nil)
    }
}
