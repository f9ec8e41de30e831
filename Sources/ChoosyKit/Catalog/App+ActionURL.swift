extension App {
    /// The URL that opens this app for `action` (doc/spec-choices.md, "URLs"): its `url_format` filled with the
    /// parameters it mentions, or the bare `app_url_scheme` when it cannot do the action.
    package func url(for action: String, parameters: [String: String]) -> String {
        guard let format = urlFormat(for: action) else { return urlScheme }
        return URLTemplate(format).fill(parameters)
    }

    /// The parameter keys this app's URL for `action` uses; the others are not passed to it.
    package func parameterKeys(for action: String) -> [String] {
        urlFormat(for: action).map { URLTemplate($0).placeholders } ?? []
    }
}
