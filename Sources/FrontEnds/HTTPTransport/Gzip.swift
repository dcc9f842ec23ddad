import CompressNIO
import Hummingbird

/// gzip through zlib (compress-nio): done once per cached body, never per request.
public enum Gzip {
    public static func compress(_ bytes: [UInt8]) -> ByteBuffer? {
        var input = ByteBuffer(bytes: bytes)
        return try? input.compress(with: .gzip())
    }
}
