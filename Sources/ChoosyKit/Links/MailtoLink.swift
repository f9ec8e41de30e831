/// A `mailto:` URI (RFC 6068) as the parameters of `email compose`.
///
/// Header names are case-insensitive; addresses from the path and every `to`, `cc` and `bcc`
/// field are comma-joined per field; for `subject`, `body` and `in-reply-to` the last occurrence wins.
/// `+` is a plus sign, not a space (RFC 6068 §5), and a malformed `%` is kept as written.
enum MailtoLink {
    static func action(_ parts: URLParts) -> LinkAction {
        var addresses: [String: [String]] = ["to": [PercentEncoding.decodeLeniently(parts.path)]]
        var parameters: [String: String] = [:]
        for (rawName, rawValue) in parts.queryItems {
            let name = PercentEncoding.decodeLeniently(rawName).lowercased()
            let value = PercentEncoding.decodeLeniently(rawValue ?? "")
            switch name {
            case "to", "cc", "bcc": addresses[name, default: []].append(value)
            case "subject", "body": parameters[name] = value
            // The mail this one answers (RFC 6068 §6, the `In-Reply-To` of a reply link).
            case "in-reply-to": parameters["in_reply_to"] = value
            default: break
            }
        }
        for (field, values) in addresses {
            let joined = values.filter { !$0.isEmpty }.joined(separator: ",")
            if !joined.isEmpty { parameters[field] = joined }
        }
        return LinkAction(type: "email", action: "compose", parameters: parameters.filter { !$0.value.isEmpty })
    }
}
