import Foundation
import Testing

@testable import Pipeline

@Suite("Stopping a run from inside")
struct RunStopTests {
    /// A provider nobody answers for fails the first call at once: the stop it causes
    /// must cancel the run before the fixture's next step looks, however soon that is.
    @Test func aStopFromTheFirstInstructionCancelsTheWorkBeforeItGoesOn() async {
        for _ in 0..<2_000 {
            let stop = RunStop()
            let cancelledInTime = await stop.cancellable {
                stop.stop(note: "not run: the provider could not be reached")
                return Task.isCancelled
            }
            #expect(cancelledInTime)
            #expect(stop.note == "not run: the provider could not be reached")
        }
    }

    @Test func workStartedAfterAStopIsCancelledFromTheStart() async {
        let stop = RunStop()
        stop.stop(note: "stopped")
        #expect(await stop.cancellable { Task.isCancelled })
    }
}
