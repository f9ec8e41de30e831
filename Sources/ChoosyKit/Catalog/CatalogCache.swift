/// Downloaded app-type files under `$XDG_CACHE_HOME/choosy/catalog/<key>.cache`: one line of
/// metadata (when it was fetched, the validators for conditional requests, the type names)
/// followed by the body exactly as served. One file per type, replaced atomically, so a crash
/// leaves the old file or the new one.
package struct CatalogCache: Sendable {
    package struct Metadata: Equatable, Sendable {
        package var fetchedAt: Double
        package var url: String
        package var etag: String? = nil
        package var lastModified: String? = nil
        package var name: String? = nil
        /// The hosts of the type's links as the patterns write them (`*.zoom.us`), so that a
        /// web link reads only the types it could belong to; nil in files written before links.
        package var linkHosts: [String]? = nil
        /// The MIME types the type claims, so that a local file reads only the types that could
        /// claim it; nil in files written before they could.
        package var mimeTypes: [String]? = nil
    }

    package struct Entry: Sendable {
        package var metadata: Metadata
        package var body: [UInt8]
        /// The records of the cached type (only those whose key is the file's).
        package var records: [AppTypeRecord]
    }

    package let directory: String
    private let fileSystem: FileSystem

    package init(directory: String, fileSystem: FileSystem) {
        self.directory = directory
        self.fileSystem = fileSystem
    }

    package init(environment: Environment, fileSystem: FileSystem) {
        self.init(directory: joinPath(environment.cacheHome, "choosy", "catalog"), fileSystem: fileSystem)
    }

    package func path(for key: String) -> String { joinPath(directory, key + ".cache") }
    /// Held while `key` is downloaded and written, so two downloads of a type never interleave.
    package func lock(for key: String, timeout: Double) throws -> any HeldLock {
        try fileSystem.lock(joinPath(directory, key + ".lock"), timeout: timeout)
    }

    /// What the last download of a type said, when it brought no data: kept as an empty
    /// marker file whose mtime is the time of the answer.
    package enum Marker: String, Sendable {
        /// The download failed, so background refreshes back off instead of warning on every
        /// command while the network is down.
        case failed
        /// The server has no file for the type (404): an answer, remembered like a download.
        case notFound = "notfound"
    }

    private func markerPath(_ marker: Marker, for key: String) -> String { joinPath(directory, key + "." + marker.rawValue) }

    /// When `marker` was last recorded for `key`.
    package func time(of marker: Marker, for key: String) -> Double? {
        fileSystem.info(markerPath(marker, for: key)).map { Double($0.modified) / 1e9 }
    }

    /// Records `marker` now, replacing the other marker: only the last answer counts.
    package func record(_ marker: Marker, for key: String) {
        try? fileSystem.writeAtomically([], to: markerPath(marker, for: key), permissions: 0o600)
        fileSystem.remove(markerPath(marker == .failed ? .notFound : .failed, for: key))
    }

    /// Forgets both markers (a download brought data).
    package func clearMarkers(of key: String) {
        fileSystem.remove(markerPath(.failed, for: key))
        fileSystem.remove(markerPath(.notFound, for: key))
    }

    /// Forgets every file of a type that brought no data: its markers and its lock.
    package func forget(_ key: String) {
        clearMarkers(of: key)
        fileSystem.remove(joinPath(directory, key + ".lock"))
    }

    package func exists(_ key: String) -> Bool {
        fileSystem.info(path(for: key))?.kind == .regular
    }

    /// The cached type, or nil. A file that cannot be read back is removed (it will be fetched
    /// again) and reported; it never stops a command.
    package func entry(for key: String, diagnostics: DiagnosticSink) -> Entry? {
        let path = path(for: key)
        do {
            return try decode(fileSystem.read(path, limit: JSONReader.ownFileLimit), key: key)
        } catch let error as FileSystemError where !error.isTooLarge {
            return nil
        } catch {
            fileSystem.remove(path)
            let reason = (error as? FileSystemError)?.reason ?? "\(error)"
            diagnostics.warning("discarded corrupt cache file \(path) (\(reason)); it will be downloaded again")
            return nil
        }
    }

    /// Key, name, link hosts and MIME types of every cached type, from the metadata lines only.
    package func typeSummaries() -> [(key: String, name: String, linkHosts: [String]?, mimeTypes: [String]?)] {
        guard let names = fileSystem.list(directory) else { return [] }
        return names.sorted().compactMap { file in
            guard file.hasSuffix(".cache") else { return nil }
            let key = String(file.dropLast(6))
            guard isValidTypeKey(key),
                let bytes = try? fileSystem.read(joinPath(directory, file), limit: JSONReader.ownFileLimit),
                let newline = bytes.firstIndex(of: 0x0A),
                let metadata = try? Metadata(line: bytes[..<newline])
            else { return nil }
            return (key, metadata.name ?? key, metadata.linkHosts, metadata.mimeTypes)
        }
    }

    /// Replaces the type's file. The caller holds `lock(for: key)`, so temporary files
    /// that killed processes left beside it can go.
    package func store(_ key: String, metadata: Metadata, body: [UInt8]) throws {
        fileSystem.removeAbandonedTemporaryFiles(of: path(for: key))
        try fileSystem.writeAtomically(Array(metadata.line.utf8) + [0x0A] + body, to: path(for: key), permissions: 0o600)
    }

    private func decode(_ bytes: [UInt8], key: String) throws -> Entry {
        guard let newline = bytes.firstIndex(of: 0x0A) else {
            throw CatalogFormatError(description: "no metadata line")
        }
        let metadata = try Metadata(line: bytes[..<newline])
        let body = Array(bytes[(newline + 1)...])
        let records = try CatalogDecoder.decode(body, source: path(for: key), diagnostics: RecordingDiagnostics(verbose: false))
            .filter { $0.key == key }
        guard !records.isEmpty else {
            throw CatalogFormatError(description: "it holds no app type '\(key)'")
        }
        return Entry(metadata: metadata, body: body, records: records)
    }
}

extension CatalogCache.Metadata {
    /// The metadata line (`JSONDecoder` read it as `Codable` with these names, so lines
    /// written then read the same).
    init(line: ArraySlice<UInt8>) throws(JSONError) {
        let fields = try JSONFields(try JSONReader.parse(line))
        self.init(
            fetchedAt: try fields.required("fetched_at", .double),
            url: try fields.required("url", .string),
            etag: try fields.optional("etag", .string),
            lastModified: try fields.optional("last_modified", .string),
            name: try fields.optional("name", .string),
            linkHosts: try fields.optional("link_hosts", .array(of: .string)),
            mimeTypes: try fields.optional("mime_types", .array(of: .string))
        )
    }

    /// One line of JSON; a missing value has no member.
    var line: String {
        var members: [(String, JSONValue)] = [("fetched_at", .double(fetchedAt)), ("url", .string(url))]
        for (name, value) in [("etag", etag), ("last_modified", lastModified), ("name", name)] {
            if let value { members.append((name, .string(value))) }
        }
        if let linkHosts { members.append(("link_hosts", .strings(linkHosts))) }
        if let mimeTypes { members.append(("mime_types", .strings(mimeTypes))) }
        return JSONValue.object(members).rendered()
    }
}
