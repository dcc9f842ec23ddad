#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A whole file's bytes: memory-mapped when it is a regular file, read into memory otherwise
/// (pipes, /dev/stdin). Mapping lets the kernel page the 61 MB source in and out as the parser
/// streams through it, instead of copying it into the process first.
final class MappedFile {
    let bytes: UnsafeBufferPointer<UInt8>
    private let release: () -> Void
    private var isMapped = false
    /// Bytes below this offset have been handed back to the kernel.
    private var released = 0

    /// Far more than the dictionary (61 MB): a larger source is a wrong file, refused before it
    /// fills the memory or the disk.
    static let maxBytes = 512 << 20
    /// How long a FIFO may stay silent: a pipeline's writer starts with it; one nobody writes to
    /// would block for ever.
    static let fifoWait: Int32 = 5_000

    init(path: String) throws(MOEError) {
        // Non-blocking: opening a FIFO without a writer would wait for ever.
        let fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)
        guard fd >= 0 else {
            let code = errno
            if code == ENOENT || code == ENOTDIR { throw .sourceMissing(path) }
            throw .unreadableSource(path, reason: String(cString: strerror(code)))
        }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0 else { throw .unreadableSource(path, reason: String(cString: strerror(errno))) }
        let kind = info.st_mode & S_IFMT
        if kind == S_IFDIR { throw .unreadableSource(path, reason: "it is a folder") }
        if kind == S_IFCHR || kind == S_IFBLK || kind == S_IFSOCK {
            throw .unreadableSource(path, reason: "it is a device, not a file: give the path of dict-revised.json")
        }
        if kind == S_IFREG && Int(info.st_size) > Self.maxBytes {
            throw .unreadableSource(path, reason: "it has \(info.st_size) bytes, more than the \(Self.maxBytes >> 20) MiB a dictionary source may have")
        }
        if kind == S_IFIFO {
            var ready = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            guard poll(&ready, 1, Self.fifoWait) > 0 else {
                throw .unreadableSource(path, reason: "nothing was written to it within \(Self.fifoWait / 1000) s")
            }
        }
        // From here reads wait for data as usual.
        _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK)

        if (info.st_mode & S_IFMT) == S_IFREG, info.st_size > 0 {
            let size = Int(info.st_size)
            // Pages come in as the parser reaches them and leave through `release(below:)`, so
            // the whole file is never resident at once (it would be a third of the import's memory).
            guard let address = mmap(nil, size, PROT_READ, MAP_PRIVATE, fd, 0), address != MAP_FAILED else {
                throw .unreadableSource(path, reason: String(cString: strerror(errno)))
            }
            _ = madvise(address, size, MADV_SEQUENTIAL)
            bytes = UnsafeBufferPointer(start: address.assumingMemoryBound(to: UInt8.self), count: size)
            isMapped = true
            release = { munmap(address, size) }
            return
        }

        // Not mappable (or empty): read to the end.
        var capacity = 1 << 20
        var count = 0
        var buffer = UnsafeMutablePointer<UInt8>.allocate(capacity: capacity)
        while true {
            if count == capacity {
                let bigger = UnsafeMutablePointer<UInt8>.allocate(capacity: capacity * 2)
                bigger.update(from: buffer, count: count)
                buffer.deallocate()
                buffer = bigger
                capacity *= 2
            }
            let n = read(fd, buffer + count, min(capacity - count, Self.maxBytes + 1 - count))
            if n > 0 {
                count += n
                // JSON that does not open with '[' fails at its first byte: no need to read the rest first.
                if let first = UnsafeBufferPointer(start: buffer, count: count).first(where: { ![0x20, 0x09, 0x0A, 0x0D, 0xEF, 0xBB, 0xBF].contains($0) }),
                    first != UInt8(ascii: "[")
                {
                    break
                }
                if count > Self.maxBytes {
                    buffer.deallocate()
                    throw .unreadableSource(path, reason: "more than the \(Self.maxBytes >> 20) MiB a dictionary source may have came through it")
                }
                continue
            }
            if n == 0 { break }
            if errno == EINTR { continue }
            let reason = String(cString: strerror(errno))
            buffer.deallocate()
            throw .unreadableSource(path, reason: reason)
        }
        bytes = UnsafeBufferPointer(start: buffer, count: count)
        let owned = buffer
        release = { owned.deallocate() }
    }

    deinit { release() }

    /// Drops the mapped pages below `offset` from memory once the import is done with them.
    ///
    /// Only a hint: the mapping is private and never written, so a page touched again is read
    /// back from the file unchanged. Memory read from a pipe is the only copy and is kept.
    func release(below offset: Int) {
        guard isMapped, let base = bytes.baseAddress else { return }
        let page = Int(sysconf(Int32(_SC_PAGESIZE)))
        let end = min(offset, bytes.count) / page * page
        // Whole megabytes at a time: one call per page would cost more than it saves.
        guard end - released >= 1 << 20 else { return }
        _ = madvise(UnsafeMutableRawPointer(mutating: base + released), end - released, MADV_DONTNEED)
        released = end
    }
}
