import ClipProcessing
import Ebur128Shim
import Foundation
import TestSupport
import Testing

@Suite struct LibraryLoadingTests {
    /// The probe is built beside the test binary.
    var probe: String {
        let exe = (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? CommandLine.arguments[0]
        var dir = URL(fileURLWithPath: exe).deletingLastPathComponent()
        if dir.pathExtension == "xctest" { dir.deleteLastPathComponent() }
        return dir.path + "/loudness-probe"
    }

    func lines(_ output: String) -> [String: String] {
        var result: [String: String] = [:]
        for line in output.split(separator: "\n") {
            guard let colon = line.firstIndex(of: ":") else { continue }
            result[String(line[..<colon])] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
        }
        return result
    }

    @Test func availableInThisProcessAndMappedOnceUsed() throws {
        #expect(Loudness.isAvailable)
        #expect(vocab_ebur128_load_attempted() != 0)
        let version = try #require(Loudness.libraryVersion)
        #expect(version.hasPrefix("1."))
        let maps = String(decoding: try FileHandle(forReadingFrom: URL(fileURLWithPath: "/proc/self/maps")).readToEnd() ?? Data(), as: UTF8.self)
        #expect(maps.contains("libebur128.so.1"))
    }

    @Test func notLinkedIntoTheBinary() throws {
        // Linked, it would be mapped at start-up by every process that contains this module.
        let ldd = try runProcess("/usr/bin/ldd", [probe])
        #expect(ldd.status == 0, "\(ldd.stderr)")
        #expect(ldd.stdout.contains("libc.so"))
        #expect(!ldd.stdout.contains("ebur128"), "\(ldd.stdout)")
    }

    @Test func loadedOnFirstMeasurementNotBefore() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let wav = try speak("cat", to: scratch.file("cat.wav"))
        let result = try runProcess(probe, ["--read", wav])
        let out = lines(result.stdout)
        #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
        #expect(out["attempted-at-start"] == "0")
        #expect(out["mapped-at-start"] == "0")
        // Reading audio (libsndfile) does not bring libebur128 in either.
        #expect(out["mapped-after-read"] == "0")
        #expect(out["measured"] == "-19.99 LUFS" || out["measured"] == "-20.00 LUFS", "\(result.stdout)")
        #expect(out["mapped-after-measure"] == "1")
    }

    @Test func aMissingLibraryGivesAnErrorThatSaysWhatToInstall() throws {
        let result = try runProcess(probe, ["--library", "libebur128-missing.so.1"])
        let out = lines(result.stdout)
        #expect(result.status == 2, "\(result.stdout)\(result.stderr)")
        #expect(out["use-library"] == "1")
        let error = try #require(out["error"])
        #expect(error.hasPrefix("loudness measurement unavailable: libebur128 could not be loaded"))
        #expect(error.contains("libebur128-missing.so.1"))
        #expect(error.contains("install libebur128-1"))
        #expect(out["mapped-after-measure"] == "0")
    }

    @Test func theLibraryCannotBeSwappedOnceLoaded() {
        #expect(Loudness.isAvailable)
        #expect(vocab_ebur128_use_library("libebur128-missing.so.1") == 0)
        #expect(Loudness.isAvailable)
    }
}
