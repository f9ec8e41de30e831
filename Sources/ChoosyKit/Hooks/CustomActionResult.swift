/// What a custom action script said: exit 0 with its `KEY=VALUE` lines, or a failure with its
/// exit status and the first line of its stderr.
package enum CustomActionResult: Equatable, Sendable {
    case success([(String, String)])
    case failure(code: Int32, message: String)

    package static func == (lhs: CustomActionResult, rhs: CustomActionResult) -> Bool {
        switch (lhs, rhs) {
        case (.success(let left), .success(let right)):
            left.count == right.count && zip(left, right).allSatisfy { $0.0 == $1.0 && $0.1 == $1.1 }
        case (.failure(let leftCode, let leftMessage), .failure(let rightCode, let rightMessage)):
            leftCode == rightCode && leftMessage == rightMessage
        default:
            false
        }
    }
}
