import OpusShim

/// Opus audio in WebM, as a browser's MediaRecorder makes it (Chromium's default, `audio/webm;
/// codecs=opus`), which libsndfile does not read: the Matroska container is walked element by
/// element (EBML) for the Opus track and its blocks, and each packet is decoded by libopus.
///
/// MediaRecorder writes its Segment and Clusters with an unknown size (it streams), so the walk
/// is linear: a master element is entered, anything else skipped by its size. Laced blocks,
/// which MediaRecorder never writes, are refused rather than guessed at.
enum WebMAudio {
    static let magic: [UInt8] = [0x1A, 0x45, 0xDF, 0xA3]

    /// Elements whose children are walked: Segment, Cluster, Tracks, TrackEntry, BlockGroup, Audio.
    static let masters: Set<UInt32> = [0x1853_8067, 0x1F43_B675, 0x1654_AE6B, 0xAE, 0xA0, 0xE1]
    static let simpleBlock: UInt32 = 0xA3
    static let block: UInt32 = 0xA1

    struct Track {
        var number: UInt64 = 0
        var codec = ""
        var channels = 1
        var preSkip = 0
    }

    struct Malformed: Error { let reason: String }

    static func decode(_ bytes: [UInt8], name: String, maximumSeconds: Double) throws -> DecodedAudio {
        let (track, packets): (Track, [ArraySlice<UInt8>])
        do {
            (track, packets) = try demux(bytes)
        } catch let error as Malformed {
            throw AudioError.unreadable(path: name, reason: "WebM: \(error.reason)")
        }
        guard vocab_opus_available() != 0 else {
            throw AudioError.unreadable(path: name, reason: "cannot load libopus: " + String(cString: vocab_opus_load_error()))
        }
        let rate = 48000
        let channels = max(1, min(2, track.channels))
        var error: Int32 = 0
        guard let decoder = vocab_opus_decoder_create(Int32(rate), Int32(channels), &error) else {
            throw AudioError.unreadable(path: name, reason: "libopus could not make a decoder (error \(error))")
        }
        defer { vocab_opus_decoder_destroy(decoder) }
        // 120 ms, the longest Opus packet.
        let most = rate * 120 / 1000
        var frame = [Float](repeating: 0, count: most * channels)
        var mono: [Float] = []
        var skip = track.preSkip
        for packet in packets {
            let made = packet.withUnsafeBufferPointer { data in
                frame.withUnsafeMutableBufferPointer { out in
                    vocab_opus_decode_float(decoder, data.baseAddress, Int32(data.count), out.baseAddress, Int32(most))
                }
            }
            guard made >= 0 else { throw AudioError.unreadable(path: name, reason: "an Opus packet could not be decoded (libopus error \(made))") }
            for i in 0..<Int(made) {
                if skip > 0 {
                    skip -= 1
                    continue
                }
                var sum: Float = 0
                for c in 0..<channels { sum += frame[i * channels + c] }
                mono.append(sum / Float(channels))
            }
            // Decoded only up to the limit: a long recording is refused without decoding the rest.
            if Double(mono.count) / Double(rate) > maximumSeconds {
                throw AudioError.implausible(path: name, reason: AudioFile.longerThan(maximumSeconds))
            }
        }
        guard !mono.isEmpty else { throw AudioError.implausible(path: name, reason: "no audio frames") }
        return DecodedAudio(pcm: PCM(samples: mono, sampleRate: rate), channels: channels, reportedFrames: mono.count, headerFrames: nil)
    }

    /// The Opus track and its packets, in order.
    static func demux(_ bytes: [UInt8]) throws -> (Track, [ArraySlice<UInt8>]) {
        var tracks: [Track] = []
        var blocks: [(track: UInt64, data: ArraySlice<UInt8>)] = []
        var at = 0
        // The EBML header first: skipped whole.
        guard bytes.starts(with: magic) else { throw Malformed(reason: "no EBML header") }
        while at < bytes.count {
            let id = try elementID(bytes, &at)
            let size = try vint(bytes, &at)
            if masters.contains(id) {
                if id == 0xAE { tracks.append(Track()) }
                continue
            }
            guard let length = size else { throw Malformed(reason: "an element of unknown size that is not a container") }
            guard length <= UInt64(bytes.count - at) else { throw Malformed(reason: "cut short") }
            let data = bytes[at..<at + Int(length)]
            at += Int(length)
            switch id {
            case 0xD7 where !tracks.isEmpty: tracks[tracks.count - 1].number = number(data)
            case 0x86 where !tracks.isEmpty: tracks[tracks.count - 1].codec = String(decoding: data, as: UTF8.self)
            case 0x9F where !tracks.isEmpty: tracks[tracks.count - 1].channels = Int(number(data))
            case 0x63A2 where !tracks.isEmpty:
                // OpusHead: the samples the encoder added before the first real one (at 48 kHz).
                if data.count >= 12, data.starts(with: Array("OpusHead".utf8)) {
                    let s = data.startIndex
                    tracks[tracks.count - 1].preSkip = Int(data[s + 10]) | Int(data[s + 11]) << 8
                }
            case simpleBlock, block:
                var p = data.startIndex
                let track = try vint(bytes, &p) ?? 0
                guard p + 3 <= data.endIndex else { throw Malformed(reason: "a block cut short") }
                let flags = bytes[p + 2]
                guard (flags >> 1) & 3 == 0 else { throw Malformed(reason: "laced blocks are not read") }
                blocks.append((track, bytes[(p + 3)..<data.endIndex]))
            default: break
            }
        }
        guard let opus = tracks.first(where: { $0.codec == "A_OPUS" }) else {
            throw Malformed(reason: "no Opus audio (tracks: \(tracks.map(\.codec).joined(separator: ", ")))")
        }
        return (opus, blocks.filter { $0.track == opus.number }.map(\.data))
    }

    /// An element ID, its length marker kept (0x1A45DFA3).
    static func elementID(_ bytes: [UInt8], _ at: inout Int) throws -> UInt32 {
        guard at < bytes.count else { throw Malformed(reason: "cut short") }
        let first = bytes[at]
        let length = first.leadingZeroBitCount + 1
        guard length <= 4, at + length <= bytes.count else { throw Malformed(reason: "a bad element ID") }
        var id: UInt32 = 0
        for i in 0..<length { id = id << 8 | UInt32(bytes[at + i]) }
        at += length
        return id
    }

    /// A variable-length number, its marker removed; nil for "unknown" (every value bit set).
    static func vint(_ bytes: [UInt8], _ at: inout Int) throws -> UInt64? {
        guard at < bytes.count else { throw Malformed(reason: "cut short") }
        let first = bytes[at]
        let length = first.leadingZeroBitCount + 1
        guard length <= 8, at + length <= bytes.count else { throw Malformed(reason: "a bad size") }
        var value = UInt64(first) & ((1 << (8 - length)) - 1)
        var allOnes = value == (1 << (8 - length)) - 1
        for i in 1..<length {
            value = value << 8 | UInt64(bytes[at + i])
            allOnes = allOnes && bytes[at + i] == 0xFF
        }
        at += length
        return allOnes ? nil : value
    }

    static func number(_ data: ArraySlice<UInt8>) -> UInt64 { data.reduce(0) { $0 << 8 | UInt64($1) } }
}
