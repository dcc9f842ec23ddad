import Foundation
import TestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// The files a person names for `say -o`, `export --out` and `backup --out`, as processes: a
/// device or FIFO is written into and stays what it is (as root, a rename over /dev/null once
/// broke every later program on a test machine), a link is followed, `-` is standard output with
/// the report on standard error.
@Suite("Output files a person names: devices, FIFOs, links and standard output")
struct OutputFileCommandTests {
    func mode(_ path: String) -> mode_t {
        var info = stat()
        return lstat(path, &info) == 0 ? info.st_mode & S_IFMT : 0
    }

    /// A character device like /dev/null in the test's own folder (root may make one; otherwise
    /// the system's /dev/null itself, which must stay a device too).
    func nullDevice(in dir: TemporaryDirectory) -> String {
        let path = dir.file("null")
        return mknod(path, S_IFCHR | 0o666, dev_t(1 << 8 | 3)) == 0 ? path : "/dev/null"
    }

    @Test(
        "vocab say -o: a device stays a device, a link stays a link with its target written, - writes the WAV to standard output and the report to standard error"
    )
    func say() throws {
        let vocab = try VocabRunner()
        let env = ["VOCAB_HOME": vocab.home.path, "VOCAB_CATEGORIES": vocab.categories, "VOCAB_AUDIO": vocab.home.file("no-audio")]
        let device = nullDevice(in: vocab.home)
        let toDevice = try runProcess(Repository.vocabExecutable, ["say", "cat", "-o", device], environment: env)
        #expect(toDevice.status == 0, "\(toDevice.stderr)")
        #expect(mode(device) == S_IFCHR && mode("/dev/null") == S_IFCHR)
        #expect(symlink(vocab.home.file("real.wav"), vocab.home.file("link.wav")) == 0)
        #expect(try runProcess(Repository.vocabExecutable, ["say", "cat", "-o", vocab.home.file("link.wav")], environment: env).status == 0)
        #expect(mode(vocab.home.file("link.wav")) == S_IFLNK && mode(vocab.home.file("real.wav")) == S_IFREG)
        let piped = try runProcess(Repository.vocabExecutable, ["say", "cat", "-o", "-"], environment: env)
        #expect(piped.status == 0 && piped.stdout.hasPrefix("RIFF"), "\(piped.stderr)")
        #expect(piped.stderr.contains("cat (british)"), "the report goes to standard error: \(piped.stderr)")
        let play = try runProcess(Repository.vocabExecutable, ["say", "cat", "-o", "-", "--play"], environment: env)
        #expect(play.status == 64)
    }

    @Test("vocab export --out a FIFO: a reader gets the CSV and the FIFO stays; vocab backup --out - and to a device")
    func exportAndBackup() async throws {
        let vocab = try LearningRunner()
        #expect(try vocab.run("users", "add", "anna").status == 0)
        #expect(try vocab.run("library", "add", "cat", "--user", "anna").status == 0)
        let fifo = vocab.home.file("player")
        #expect(mkfifo(fifo, 0o600) == 0)
        let reader = ThreadReader { open(fifo, O_RDONLY) }
        let exported = try await runProcessOnThread(
            Repository.vocabExecutable, ["export", "--format", "csv", "--out", fifo, "--user", "anna"], environment: vocab.environment)
        #expect(exported.status == 0, "\(exported.stderr)")
        #expect(reader.text().hasPrefix("#separator:"))
        #expect(mode(fifo) == S_IFIFO)
        let piped = try vocab.run("backup", "--out", "-")
        #expect(piped.status == 0 && piped.stdout.hasPrefix("SQLite format 3"), "\(piped.stderr)")
        #expect(piped.stderr.hasPrefix("Backed up -"), "\(piped.stderr)")
        let device = nullDevice(in: vocab.home)
        #expect(try vocab.run("backup", "--out", device).status == 0)
        #expect(mode(device) == S_IFCHR && mode("/dev/null") == S_IFCHR)
    }
}
