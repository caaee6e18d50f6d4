/// Rules every reader of input bytes shares.
enum InputBytes {
    /// 3 when `bytes` starts with a UTF-8 byte order mark, else 0. Only the
    /// start of a document may hold one; it takes no column.
    static func byteOrderMarkLength<Bytes: RandomAccessCollection<UInt8>>(_ bytes: Bytes) -> Int
    where Bytes.Index == Int {
        let start = bytes.startIndex
        return bytes.count >= 3 && bytes[start] == 0xEF && bytes[start + 1] == 0xBB && bytes[start + 2] == 0xBF ? 3 : 0
    }

    /// `1 GiB`, `4 MiB`, `64 KiB` or `1000 bytes`, as limits are quoted.
    static func describeSize(_ bytes: Int) -> String {
        if bytes > 0 && bytes % (1 << 30) == 0 { return "\(bytes >> 30) GiB" }
        if bytes > 0 && bytes % (1 << 20) == 0 { return "\(bytes >> 20) MiB" }
        if bytes > 0 && bytes % (1 << 10) == 0 { return "\(bytes >> 10) KiB" }
        return bytes == 1 ? "1 byte" : "\(bytes) bytes"
    }
}
