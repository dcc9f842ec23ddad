import Testing

@testable import App

/// Clips fetched ahead take turns; a tap on one still waiting lets it go at once.
@Suite("The ahead lane: renders asked for before anyone plays them take turns")
struct AheadLaneTests {
    /// Until `lane` has `count` renders waiting (each test's tasks reach it in their own time).
    func waitUntil(_ lane: AheadLane<String>, queued count: Int) async {
        while await lane.queued != count { await Task.yield() }
    }

    @Test("one at a time, in the order asked; leaving hands the turn on; a free lane is entered at once")
    func turns() async {
        let lane = AheadLane<String>()
        #expect(await lane.enter("cat"))
        let dog = Task { await lane.enter("dog") }
        await waitUntil(lane, queued: 1)
        let fish = Task { await lane.enter("fish") }
        await waitUntil(lane, queued: 2)
        await lane.leave()
        #expect(await dog.value, "dog waited and now holds the turn")
        #expect(await lane.queued == 1)
        await lane.leave()
        #expect(await fish.value)
        await lane.leave()
        #expect(await lane.enter("bird"), "nobody holds the turn: entered at once")
    }

    @Test("a tap lets a waiting render go without the turn, which stays with its holder; an unknown key changes nothing")
    func promotion() async {
        let lane = AheadLane<String>()
        #expect(await lane.enter("cat"))
        let dog = Task { await lane.enter("dog") }
        await waitUntil(lane, queued: 1)
        let fish = Task { await lane.enter("fish") }
        await waitUntil(lane, queued: 2)
        await lane.promote("fish")
        #expect(await fish.value == false, "fish goes now, and must not hand on a turn it never had")
        await lane.promote("horse")
        #expect(await lane.queued == 1, "dog still waits for cat's turn")
        await lane.leave()
        #expect(await dog.value)
    }
}
