/// A `geo:` URI (RFC 5870) as `maps show_location`, or `maps search` when it has a `q=`
/// query and no position (the Android convention, where `geo:0,0?q=Berlin` means "no
/// position, search").
///
/// In `q`, `+` is a space, as Android writes it. Coordinates are passed as written. A
/// position with a `q=` stays a location with that query (GNOME Maps searches it around the
/// point); `geo:0,0?q=LAT,LON(label)` is the point in `q`; `z=` is the zoom.
enum GeoLink {
    /// Nil when the coordinates are not numbers in range or use another reference system.
    static func action(_ parts: URLParts) -> LinkAction? {
        let fields = parts.path.split(separator: ";", omittingEmptySubsequences: false)
        guard var point = point(fields[0].split(separator: ",", omittingEmptySubsequences: false)) else { return nil }
        for field in fields.dropFirst() {
            let pair = field.split(separator: "=", maxSplits: 1)
            if pair.first?.lowercased() == "crs", pair.count == 2, pair[1].lowercased() != "wgs84" { return nil }
        }
        let items = parts.queryItems
        let query =
            items.last { $0.name == "q" }
            .map { PercentEncoding.decodeLeniently($0.value ?? "", plusIsSpace: true) } ?? ""
        let zoom = items.last { $0.name == "z" }.map { String($0.value ?? "") }
        var parameters: [String: String] = [:]
        if let zoom, !zoom.isEmpty, zoom.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }) { parameters["zoom"] = zoom }
        // With a query, 0,0 is how links say "no position" (a point in the Gulf of Guinea
        // nobody searches around), unless the query is itself a point.
        let noPosition = point.latitude == 0 && point.longitude == 0
        if noPosition, !query.isEmpty {
            let written = query.firstIndex(of: "(").map { query[..<$0] } ?? query[...]
            guard let inQuery = Self.point(written.split(separator: ",", omittingEmptySubsequences: false)) else {
                parameters["query"] = query
                return LinkAction(type: "maps", action: "search", parameters: parameters)
            }
            point = inQuery
        } else if !query.isEmpty {
            parameters["query"] = query
        }
        parameters["latitude"] = point.latitudeText
        parameters["longitude"] = point.longitudeText
        parameters["latitude_longitude"] = "\(point.latitudeText),\(point.longitudeText)"
        return LinkAction(type: "maps", action: "show_location", parameters: parameters)
    }

    private struct Point {
        var latitude: Double
        var longitude: Double
        var latitudeText: String
        var longitudeText: String
    }

    /// `LAT,LON` or `LAT,LON,ALT` as RFC 5870 writes them, in range; nil otherwise.
    private static func point(_ coordinates: [Substring]) -> Point? {
        guard coordinates.count == 2 || coordinates.count == 3,
            coordinates.allSatisfy(isDecimal),
            let latitude = Double(coordinates[0]), let longitude = Double(coordinates[1]),
            abs(latitude) <= 90, abs(longitude) <= 180
        else { return nil }
        return Point(latitude: latitude, longitude: longitude, latitudeText: String(coordinates[0]), longitudeText: String(coordinates[1]))
    }

    /// `-?digits[.digits]`, the number form RFC 5870 allows.
    private static func isDecimal(_ text: Substring) -> Bool {
        let unsigned = text.hasPrefix("-") ? text.dropFirst() : text
        let pieces = unsigned.split(separator: ".", maxSplits: 1, omittingEmptySubsequences: false)
        return pieces.allSatisfy { !$0.isEmpty && $0.utf8.allSatisfy { $0 >= 0x30 && $0 <= 0x39 } }
    }
}
