/// What an x-callback action came to: a handler of `CallbackRouter` or a custom action
/// script (`HookRunner.runCustomAction`, which never cancels).
package enum CallbackOutcome: Equatable, Sendable {
    /// Done; the parameters are appended to `x-success`.
    case success([(String, String)])
    case cancel
    /// `code` becomes the exit status and `errorCode`.
    case failure(code: Int32, message: String)

    package static func == (lhs: CallbackOutcome, rhs: CallbackOutcome) -> Bool {
        switch (lhs, rhs) {
        case (.success(let left), .success(let right)):
            left.count == right.count && zip(left, right).allSatisfy { $0.0 == $1.0 && $0.1 == $1.1 }
        case (.cancel, .cancel):
            true
        case (.failure(let leftCode, let leftMessage), .failure(let rightCode, let rightMessage)):
            leftCode == rightCode && leftMessage == rightMessage
        default:
            false
        }
    }
}
