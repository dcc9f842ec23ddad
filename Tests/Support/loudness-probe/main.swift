// Test helper for ClipProcessingTests: reports, in a process of its own, whether libebur128 is
// mapped before and after the first measurement, and what a failed load looks like.
//   loudness-probe [--library SONAME] [--read FILE]
//   loudness-probe --measure FILE...    (for scripts/bench-render: one "LUFS dBTP seconds path" line per file)
import AudioFile
import ClipProcessing
import Ebur128Shim
import Foundation

/// /proc files report size 0, so they are read until end of file rather than by their size.
func mapped() -> Int {
    guard let handle = FileHandle(forReadingAtPath: "/proc/self/maps"),
        let data = try? handle.readToEnd()
    else { return -1 }
    return String(decoding: data, as: UTF8.self).contains("libebur128") ? 1 : 0
}

var arguments = Array(CommandLine.arguments.dropFirst())
if arguments.first == "--measure" {
    for path in arguments.dropFirst() {
        do {
            let pcm = try AudioFile.read(path)
            let report = try Loudness.measure(pcm)
            print(String(format: "%.2f %.2f %.3f %@", report.integratedLUFS, report.truePeakDBTP, pcm.duration, path))
        } catch {
            print("nan nan nan \(path)")
        }
    }
    exit(0)
}
var readPath: String?
while let flag = arguments.first {
    arguments.removeFirst()
    switch flag {
    case "--library":
        let name = arguments.removeFirst()
        print("use-library: \(vocab_ebur128_use_library(name))")
    case "--read":
        readPath = arguments.removeFirst()
    default:
        FileHandle.standardError.write(Data("unknown argument \(flag)\n".utf8))
        exit(64)
    }
}

print("attempted-at-start: \(vocab_ebur128_load_attempted())")
print("mapped-at-start: \(mapped())")
if let readPath {
    let pcm = try AudioFile.read(readPath)
    print("read-frames: \(pcm.samples.count)")
    print("mapped-after-read: \(mapped())")
}
// 1 kHz at −20 dBFS RMS (K-weighting adds ~0.7 dB at 1 kHz, BS.1770 subtracts 0.691): −20 LUFS.
let rate = 48_000
let tone = (0..<rate).map { Float(0.1 * 2.0.squareRoot() * sin(2 * Double.pi * 1000 * Double($0) / Double(rate))) }
do {
    let report = try Loudness.measure(PCM(samples: tone, sampleRate: rate))
    print(String(format: "measured: %.2f LUFS", report.integratedLUFS))
    print("mapped-after-measure: \(mapped())")
    exit(0)
} catch {
    print("error: \(error)")
    print("mapped-after-measure: \(mapped())")
    exit(2)
}
