/// Changes one member of `config.json` for a command that edits it (`choosy hide`, `choosy
/// unhide`: the `hidden` list). The file is the user's: it is changed under the lock of
/// `config.json.lock` and replaced atomically (through a symbolic link, which dotfile managers
/// make, not instead of it), with every other member kept as it was, its mode too. One that
/// cannot be read is never moved aside, since the user wrote it: the command exits 7 and the
/// file stays as it is (doc/configuration.md, "Corrupt and newer files").
package struct ConfigurationEditor {
    package let path: String
    private let fileSystem: FileSystem

    package init(environment: Environment, fileSystem: FileSystem) {
        path = Configuration.path(environment: environment)
        self.fileSystem = fileSystem
    }

    /// Applies `change` to the list of strings `member` holds (empty when it is not there) and
    /// writes the file; returns what `change` returns. A change that leaves the list as it was
    /// writes nothing.
    package func changeList<Result>(_ member: String, _ change: (inout [String]) throws(ChoosyError) -> Result) throws(ChoosyError)
        -> Result
    {
        let lock: any HeldLock
        do {
            lock = try fileSystem.lock(path + ".lock", timeout: 30)
        } catch {
            throw .internal("cannot lock \(path): \(Self.reason(of: error))")
        }
        defer { lock.unlock() }
        let existing = fileSystem.info(path)
        var members: [(String, JSONValue)] = []
        if existing != nil {
            let json: JSONValue
            do {
                json = try JSONReader.parse(fileSystem.read(path, limit: JSONReader.ownFileLimit))
            } catch {
                throw .corrupt("\(path) is not valid (\(Self.reason(of: error))): fix it first; nothing was changed")
            }
            guard case .object(let read) = json else { throw .corrupt("\(path) is not a JSON object: fix it first; nothing was changed") }
            members = read
        }
        let index = members.firstIndex { $0.0 == member }
        var list: [String] = []
        if let index {
            let elements = members[index].1.elements ?? []
            list = elements.compactMap(\.stringValue)
            guard members[index].1.elements != nil, list.count == elements.count else {
                throw .corrupt("\(path): \"\(member)\" should be an array of strings: fix it first; nothing was changed")
            }
        }
        let before = list
        let result = try change(&list)
        guard list != before else { return result }
        if let index { members[index].1 = .strings(list) } else { members.append((member, .strings(list))) }
        let bytes = Array((JSONValue.object(members).rendered(indented: true) + "\n").utf8)
        let target = existing == nil ? path : (fileSystem.canonicalPath(path) ?? path)
        do {
            try fileSystem.writeAtomically(bytes, to: target, permissions: existing?.permissions ?? 0o600)
        } catch {
            throw .internal("cannot save \(path): \(Self.reason(of: error))")
        }
        return result
    }

    private static func reason(of error: any Error) -> String {
        (error as? FileSystemError)?.reason ?? "\(error)"
    }
}
