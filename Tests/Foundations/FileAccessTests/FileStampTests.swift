import FileAccess
import Foundation
import TestSupport
import Testing

@Suite("File stamps, and a witness of the files an answer came from")
struct FileStampTests {
    @Test("a stamp changes when a file is replaced or a folder gains a file, and is 'absent' for no file")
    func stampsFollowChanges() throws {
        let dir = try TemporaryDirectory("stamps")
        defer { dir.remove() }
        let file = dir.file("cat.wav")
        #expect(fileStamp(file) == "absent")
        let folder = fileStamp(dir.path)
        try Data("one".utf8).write(to: URL(fileURLWithPath: file))
        let first = fileStamp(file)
        #expect(first != "absent")
        #expect(fileStamp(dir.path) != folder, "a file added changes its folder's stamp")
        // The same size, written again a moment later: the modification time tells them apart.
        usleep(20_000)
        try Data("two".utf8).write(to: URL(fileURLWithPath: file))
        #expect(fileStamp(file) != first)
    }

    @Test("a witness notes each stamp taken in its task, once, and nothing taken outside it")
    func witnessNotesStampsOfItsTask() async throws {
        let dir = try TemporaryDirectory("witness")
        defer { dir.remove() }
        let a = dir.file("a")
        let b = dir.file("b")
        try Data("a".utf8).write(to: URL(fileURLWithPath: a))
        _ = fileStamp(dir.file("outside"))
        let witness = StampWitness()
        StampWitness.$current.withValue(witness) {
            _ = fileStamp(a)
            _ = fileStamp(b)
            _ = fileStamp(a)
        }
        _ = fileStamp(dir.file("after"))
        let stamps = try #require(witness.stamps)
        #expect(stamps.map(\.path) == [a, b])
        #expect(stamps.map(\.stamp)[1] == "absent")
        #expect(StampWitness.unchanged(stamps))
        try Data("b".utf8).write(to: URL(fileURLWithPath: b))
        #expect(!StampWitness.unchanged(stamps), "a file that appeared since")
    }

    @Test("an answer that depends on more than files has no stamps to reuse it by")
    func moreThanFiles() {
        let witness = StampWitness()
        StampWitness.$current.withValue(witness) {
            _ = fileStamp("/")
            StampWitness.current?.dependsOnMoreThanFiles()
        }
        #expect(witness.stamps == nil)
    }
}
