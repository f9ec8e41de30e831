/// The user's say over what pickers offer (SPEC §6.1): `hidden` choices are left out, `order`
/// puts choices first in its order, and `order_by_use` the rest by how often the user picked
/// them. An entry of either list is a choice key as anywhere else, and covers the choices it
/// names (doc/configuration.md, "Hide, pin, order"): `firefox@Work/Banking` that container,
/// `firefox@Work` the profile and its containers, `firefox` or a desktop ID (`firefox.desktop`)
/// the app with all its profiles. In `order`, a choice goes where the most specific entry that
/// covers it is.
struct ChoiceArrangement: Sendable {
    let orderByUse: Bool
    private let hidden: Set<String>
    /// The place of each entry of `order`: its first.
    private let places: [String: Int]

    init(_ configuration: Configuration) {
        self.init(hidden: configuration.hidden, order: configuration.order, orderByUse: configuration.orderByUse)
    }

    init(hidden: [String], order: [String], orderByUse: Bool) {
        self.hidden = Set(hidden)
        var places: [String: Int] = [:]
        for (place, entry) in order.enumerated() where places[entry] == nil { places[entry] = place }
        self.places = places
        self.orderByUse = orderByUse
    }

    /// The entry of `hidden` that covers `choice`, the most specific one; nil when none does.
    func hiding(_ choice: InstalledApp) -> String? {
        guard !hidden.isEmpty else { return nil }
        return Self.names(of: choice).first(where: hidden.contains)
    }

    /// Whether the user hid anything.
    var hidesAny: Bool { !hidden.isEmpty }

    /// The desktop IDs of `choices` whose every choice is hidden, but for `keeping` (the default).
    func hiddenEntries(of choices: [InstalledApp], keeping kept: String?) -> [String] {
        var hiddenByEntry: [String: Bool] = [:]
        for choice in choices {
            guard let id = choice.entry?.id else { continue }
            let hidden = choice.key != kept && hiding(choice) != nil
            hiddenByEntry[id] = (hiddenByEntry[id] ?? true) && hidden
        }
        return hiddenByEntry.filter(\.value).keys.sorted()
    }

    /// `choices`, the ones `order` covers first in its order, then the rest as they were or,
    /// with `order_by_use`, by `picks` (most first; `picks` is asked only then, once). A
    /// `defaultApp` that leads the rest (the picker shows the default first) stays first of them.
    func ordered(_ choices: [InstalledApp], defaultApp: String?, picks: () -> [String: Int]) -> [InstalledApp] {
        guard !places.isEmpty || orderByUse, choices.count > 1 else { return choices }
        var ordered: [(place: Int, index: Int, choice: InstalledApp)] = []
        var rest: [InstalledApp] = []
        for (index, choice) in choices.enumerated() {
            if let place = Self.names(of: choice).lazy.compactMap({ places[$0] }).first {
                ordered.append((place, index, choice))
            } else {
                rest.append(choice)
            }
        }
        ordered.sort { ($0.place, $0.index) < ($1.place, $1.index) }
        let leading = rest.first.flatMap { $0.key == defaultApp ? $0 : nil }
        if orderByUse && rest.count > 1 {
            let counts = picks()
            let sorted = rest.dropFirst(leading == nil ? 0 : 1).enumerated().sorted { left, right in
                let (a, b) = (counts[left.element.key] ?? 0, counts[right.element.key] ?? 0)
                return a != b ? a > b : left.offset < right.offset
            }.map(\.element)
            rest = (leading.map { [$0] } ?? []) + sorted
        }
        return ordered.map(\.choice) + rest
    }

    /// What the user may call a choice, most specific first: its key, its profile's key (for a
    /// container), its app's key (for a profile), its entry's desktop ID with and without
    /// `.desktop`.
    static func names(of choice: InstalledApp) -> [String] {
        var names = [choice.key]
        if let profile = choice.profile {
            if profile.container != nil { names.append(ChoiceKey.make(app: choice.app.key, profile: profile.profileKey)) }
            names.append(choice.app.key)
        }
        if let id = choice.entry?.id {
            names.append(id)
            if id.hasSuffix(".desktop") { names.append(String(id.dropLast(".desktop".count))) }
        }
        return names
    }
}
