/// A `geo:` URI (RFC 5870) as `maps show_location`, or `maps search` when it has a `q=`
/// query (the Android convention, where `geo:0,0?q=Berlin` means "no position, search").
///
/// In `q`, `+` is a space, as Android writes it. Coordinates are passed as written.
enum GeoLink {
    /// Nil when the coordinates are not numbers in range or use another reference system.
    static func action(_ parts: URLParts) -> LinkAction? {
        let fields = parts.path.split(separator: ";", omittingEmptySubsequences: false)
        let coordinates = fields[0].split(separator: ",", omittingEmptySubsequences: false)
        guard coordinates.count == 2 || coordinates.count == 3,
            coordinates.allSatisfy(isDecimal),
            let latitude = Double(coordinates[0]), let longitude = Double(coordinates[1]),
            abs(latitude) <= 90, abs(longitude) <= 180
        else { return nil }
        for field in fields.dropFirst() {
            let pair = field.split(separator: "=", maxSplits: 1)
            if pair.first?.lowercased() == "crs", pair.count == 2, pair[1].lowercased() != "wgs84" { return nil }
        }

        var parameters = [
            "latitude": String(coordinates[0]),
            "longitude": String(coordinates[1]),
            "latitude_longitude": "\(coordinates[0]),\(coordinates[1])",
        ]
        let query =
            parts.queryItems.last { $0.name == "q" }
            .map { PercentEncoding.decodeLeniently($0.value ?? "", plusIsSpace: true) } ?? ""
        guard !query.isEmpty else {
            return LinkAction(type: "maps", action: "show_location", parameters: parameters)
        }
        // With a query, 0,0 is how links say "no position" (a point in the Gulf of Guinea
        // nobody searches around).
        if latitude == 0 && longitude == 0 { parameters = [:] }
        parameters["query"] = query
        return LinkAction(type: "maps", action: "search", parameters: parameters)
    }

    /// `-?digits[.digits]`, the number form RFC 5870 allows.
    private static func isDecimal(_ text: Substring) -> Bool {
        let unsigned = text.hasPrefix("-") ? text.dropFirst() : text
        let pieces = unsigned.split(separator: ".", maxSplits: 1, omittingEmptySubsequences: false)
        return pieces.allSatisfy { !$0.isEmpty && $0.utf8.allSatisfy { $0 >= 0x30 && $0 <= 0x39 } }
    }
}
