/// The user's settings file, `$XDG_CONFIG_HOME/choosy/config.json`. It is written by hand and
/// choosy never writes it, so a broken one (an empty file, a trailing comma) is never moved:
/// it is reported once and the defaults stand, since a link must open whatever the file says.
/// Members it does not know get one warning per command (SPEC §7) and are kept in `unknown`,
/// for a command that rewrites the file to put back.
package struct Configuration: Equatable, Sendable {
    /// Every member this choosy reads.
    static let members = [
        "catalog_url", "schemes", "picker", "clean_referrals", "clean_links", "unshorten", "running", "new_window_here", "hidden", "order",
        "order_by_use", "history",
    ]

    /// Base of the remote catalog tree (`<base>/app-data/<type>.json`).
    package var catalogURL: String?
    /// Extra x-callback-url schemes `choosy route` answers to, besides `choosy`.
    package var schemes: [String] = []
    /// The picker when neither `--picker` nor `CHOOSY_PICKER` says.
    package var picker: String?
    /// `clean_referrals`: cleaning removes referral marketing items too (affiliate tags), which
    /// the ClearURLs add-on keeps by default.
    package var cleanReferrals = false
    /// `clean_links`: `handle`, `open` and `rule test` clean links unless `--no-clean` is given.
    package var cleanLinks = false
    /// `unshorten`: `handle`, `open` and `rule test` follow shortened links to where they lead
    /// unless `--no-unshorten` is given (a dry run only with `--unshorten`).
    package var unshorten = false
    /// `running`: what the choices that run count for (doc/running.md); nil, the default, reads
    /// nothing of what runs.
    package var running: RunningOption?
    /// `new_window_here`: a browser whose windows are all on other workspaces opens the link in
    /// a new window (doc/running.md).
    package var newWindowHere = false
    /// `hidden`: choices pickers and the no-picker fallback leave out (SPEC §6.1).
    package var hidden: [String] = []
    /// `order`: choices pickers offer first, in this order (SPEC §6.1).
    package var order: [String] = []
    /// `order_by_use`: pickers offer the other choices by how often the user picked them.
    package var orderByUse = false
    /// `history`: links given to choosy are kept in `$XDG_STATE_HOME/choosy/history`; false keeps none.
    package var history = true
    /// The members none of `members` names, in the file's order.
    package var unknown = UnknownJSONMembers()

    /// What the choices that run count for; each one also does what the ones before it do.
    package enum RunningOption: String, CaseIterable, Sendable {
        /// Pickers mark them ("Firefox — Work (running)").
        case mark
        /// Pickers list them first.
        case first
        /// One that runs is used without asking (SPEC §6.2).
        case use
    }

    /// Whether any option asks what runs and where: only then is `/proc` read or a window
    /// system asked.
    package var asksWhatRuns: Bool { running != nil || newWindowHere }
}

extension Configuration {
    init(json: JSONValue) throws(JSONError) {
        let fields = try JSONFields(json)
        self.init(
            catalogURL: try fields.optional("catalog_url", .string),
            schemes: try fields.optional("schemes", .array(of: .string)) ?? [],
            picker: try fields.optional("picker", .string),
            cleanReferrals: try fields.optional("clean_referrals", .bool) ?? false,
            cleanLinks: try fields.optional("clean_links", .bool) ?? false,
            unshorten: try fields.optional("unshorten", .bool) ?? false,
            running: try fields.optional("running", .oneOf),
            newWindowHere: try fields.optional("new_window_here", .bool) ?? false,
            hidden: try fields.optional("hidden", .array(of: .string)) ?? [],
            order: try fields.optional("order", .array(of: .string)) ?? [],
            orderByUse: try fields.optional("order_by_use", .bool) ?? false,
            history: try fields.optional("history", .bool) ?? true
        )
        unknown = fields.unknownMembers(known: Self.members)
    }

    /// The one warning about the members this choosy does not know, with the member each near
    /// miss may have meant; nil when it knows them all.
    package func unknownMembersWarning(path: String) -> String? {
        let names = unknown.names
        guard !names.isEmpty else { return nil }
        let listed = names.map { name in "'\(singleLine(name))'" + didYouMean(name, among: Self.members) }
        let plural = names.count == 1 ? "member" : "members"
        return "\(path): unknown \(plural) \(listed.joined(separator: ", ")), ignored"
    }

    package static func path(environment: Environment) -> String {
        joinPath(environment.configHome, "choosy", "config.json")
    }

    package static func load(environment: Environment, fileSystem: FileSystem, warnings: CorruptFileWarnings) -> Configuration {
        let path = path(environment: environment)
        guard fileSystem.info(path) != nil else { return Configuration() }
        let reason: String
        do {
            return try Configuration(json: JSONReader.parse(fileSystem.read(path, limit: JSONReader.ownFileLimit)))
        } catch let error as FileSystemError {
            reason = error.reason
        } catch {
            reason = "\(error)"
        }
        warnings.report(path, "\(path) is not valid (\(reason)): using the default settings until it is fixed")
        return Configuration()
    }
}
