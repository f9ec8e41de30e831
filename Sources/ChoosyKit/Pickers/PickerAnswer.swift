/// What the user chose. Indexes point into `PickerRequest.candidates`.
package enum PickerAnswer: Equatable, Sendable {
    /// Use this app for this request only.
    case justOnce(Int)
    /// Use this app now and remember it as the type's default.
    case always(Int)
    /// Use this app now and for every link of the request's site (a site rule).
    case alwaysForSite(Int)
    case cancelled
    /// The picker could not show itself (its display does not answer, or it failed with its
    /// display's own error): not a cancel, the next picker is tried (doc/desktop.md). Says why.
    case notShown(String)
}
