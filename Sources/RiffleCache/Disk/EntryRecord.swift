import Foundation
import RiffleHTTP
import RiffleJSON

/// What the index's row says of a named body, kept on the body's file too (an extended attribute,
/// `CacheFolder.recordAttribute`), so the first frame can tell whose answer a page file is, how
/// fresh, and whether it is whole, without opening the index.
///
/// It is written on the file under its temporary name, before the rename that gives it its place,
/// with the values the row is committed with: a file therefore carries the record of the store that
/// wrote it and no other. A 304 that renews the row renews the record too (under the index's lock).
/// The index stays the authority: what was shown from a record is checked against the row right
/// after the frame (`ResponseCache.Reader.confirms(named:_:)`).
package struct EntryRecord: Sendable, Equatable {
    /// The cache key of the request the body answers (a digest of its method, URL and credentials).
    package var key: CacheKey
    /// The store that wrote the file (the row's `version`).
    package var version: Int64
    /// The body's size in bytes: a file of another size is not this body.
    package var size: Int
    package var status: Int
    /// When the server sent the body, or last confirmed it.
    package var fetchedAt: Double
    package var etag: String?
    package var lastModified: String?
    package var maxAge: Double?
    /// The owner's note (`BodyLocation.named`).
    package var note: String?

    init(_ entry: CacheEntry) {
        key = entry.key
        version = entry.version
        size = entry.size
        status = entry.status
        fetchedAt = entry.fetchedAt.timeIntervalSince1970
        etag = entry.etag
        lastModified = entry.lastModified
        maxAge = entry.serverMaxAge
        note = entry.note
    }

    init(_ row: DiskCache.Row) {
        key = CacheKey(id: row.key)
        version = row.version
        size = row.size
        status = row.status
        fetchedAt = row.fetchedAt
        etag = row.etag
        lastModified = row.lastModified
        maxAge = row.maxAge
        note = row.note
    }

    /// Whether `row` describes the same stored body as this record, as fresh: the same store (key,
    /// version and size), the same fetch time and lifetime, and the file the row names.
    func matches(_ row: DiskCache.Row, fileID: UInt64) -> Bool {
        row.key == key.id && row.version == version && row.size == size && row.fileID == fileID && row.fetchedAt == fetchedAt
            && row.maxAge == maxAge && row.status == status && row.note == note
    }

    /// One JSON object; numbers as the text that reads back to the same value.
    var bytes: [UInt8] {
        var members: [(key: String, value: JSONValue)] = [
            ("v", .number("1")), ("key", .string(key.id)), ("version", .number(String(version))), ("size", .number(String(size))),
            ("status", .number(String(status))), ("fetched", .number("\(fetchedAt)")),
        ]
        if let etag { members.append(("etag", .string(etag))) }
        if let lastModified { members.append(("lastModified", .string(lastModified))) }
        if let maxAge { members.append(("maxAge", .number("\(maxAge)"))) }
        if let note { members.append(("note", .string(note))) }
        var text = ""
        JSONWriter.write(.object(JSONObject(members)), into: &text)
        return Array(text.utf8)
    }

    /// A record read back; nil when it is not one this version writes.
    init?(bytes: [UInt8]) {
        guard case .object(let object)? = try? JSONParser.parse(bytes), object["v"]?.scalarText == "1",
              let key = object["key"]?.stringValue, key.utf8.count == 64,
              let version = object["version"]?.scalarText.flatMap({ Int64($0) }),
              let size = object["size"]?.scalarText.flatMap({ Int($0) }), size >= 0,
              let status = object["status"]?.scalarText.flatMap({ Int($0) }),
              let fetchedAt = object["fetched"]?.doubleValue, fetchedAt.isFinite else { return nil }
        self.key = CacheKey(id: key)
        self.version = version
        self.size = size
        self.status = status
        self.fetchedAt = fetchedAt
        etag = object["etag"]?.stringValue
        lastModified = object["lastModified"]?.stringValue
        maxAge = object["maxAge"]?.doubleValue
        note = object["note"]?.stringValue
    }

    /// The size a record's bytes say, for `CacheFolder.readRecorded` (nil: not a record).
    static func size(of bytes: [UInt8]) -> Int? { EntryRecord(bytes: bytes)?.size }
}
