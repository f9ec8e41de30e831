import CCurl
import Glibc

/// HTTP over libcurl, loaded with dlopen on the first request so that commands which never
/// download do not pay for loading it. Redirects are followed here, not by libcurl, so that
/// every hop is checked against `HTTPURLPolicy`.
package struct CurlHTTPClient: HTTPClient {
    private let limits: HTTPLimits
    private let showProgress: Bool

    /// `showProgress`: draw a progress line on stderr when a download takes over half a second.
    package init(limits: HTTPLimits = HTTPLimits(), showProgress: Bool) {
        self.limits = limits
        self.showProgress = showProgress
    }

    package func get(_ request: HTTPRequest) throws(HTTPError) -> HTTPResponse {
        let curl = try CurlLibrary.shared()
        guard let handle = curl.easyInit() else { throw HTTPError("libcurl could not start a transfer") }
        defer { curl.easyCleanup(handle) }
        let deadline = monotonicSeconds() + limits.totalTimeout
        var url = request.url
        for _ in 0...limits.maxRedirects {
            guard HTTPURLPolicy.permits(url) else {
                throw HTTPError("refusing \(url): only https:// (or http:// on loopback) is allowed")
            }
            let remaining = deadline - monotonicSeconds()
            guard remaining > 0 else { throw HTTPError("\(request.url): timed out") }
            let transfer = Transfer(limit: limits.maxBodyBytes, label: request.label, showProgress: showProgress)
            let code = perform(curl, handle, url: url, request: request, transfer: transfer, timeout: remaining, headOnly: false)
            transfer.clearProgress()
            if transfer.tooLarge {
                throw HTTPError("\(url): response larger than \(limits.maxBodyBytes / 1024) KiB")
            }
            guard code == CURLE_OK else {
                throw HTTPError("\(url): \(curl.errorText(code))")
            }
            let status = curl.responseCode(handle)
            if [301, 302, 303, 307, 308].contains(status) {
                guard let next = curl.redirectURL(handle) else {
                    throw HTTPError("\(url): HTTP \(status) without a Location")
                }
                url = next
                continue
            }
            return HTTPResponse(status: status, etag: transfer.etag, lastModified: transfer.lastModified, body: transfer.body)
        }
        throw HTTPError("\(request.url): more than \(limits.maxRedirects) redirects")
    }

    package func head(_ url: String, timeout: Double) throws(HTTPError) -> HTTPHead {
        guard HTTPURLPolicy.permits(url) else {
            throw HTTPError("refusing \(url): only https:// (or http:// on loopback) is allowed")
        }
        let curl = try CurlLibrary.shared()
        guard let handle = curl.easyInit() else { throw HTTPError("libcurl could not start a transfer") }
        defer { curl.easyCleanup(handle) }
        // No body is asked for, so none counts against the limit; a server that sends one anyway
        // is not read.
        let transfer = Transfer(limit: limits.maxBodyBytes, label: url, showProgress: false)
        let code = perform(
            curl, handle, url: url, request: HTTPRequest(url: url, label: url), transfer: transfer, timeout: timeout, headOnly: true)
        guard code == CURLE_OK else { throw HTTPError("\(url): \(curl.errorText(code))") }
        let status = curl.responseCode(handle)
        return HTTPHead(status: status, location: [301, 302, 303, 307, 308].contains(status) ? curl.redirectURL(handle) : nil)
    }

    /// `headOnly`: a HEAD request (no body asked for or read), with no connection kept for another.
    private func perform(
        _ curl: CurlLibrary, _ handle: UnsafeMutableRawPointer, url: String, request: HTTPRequest,
        transfer: Transfer, timeout: Double, headOnly: Bool
    ) -> CURLcode {
        curl.reset(handle)
        var headers: OpaquePointer?
        // Checked again here: a cache written by an older choosy may hold any validator.
        if let etag = HTTPValidator.usable(request.ifNoneMatch) { headers = curl.append(headers, "If-None-Match: \(etag)") }
        if let date = HTTPValidator.usable(request.ifModifiedSince) { headers = curl.append(headers, "If-Modified-Since: \(date)") }
        defer { curl.freeList(headers) }

        let context = Unmanaged.passUnretained(transfer).toOpaque()
        curl.set(handle, CURLOPT_URL, url)
        curl.set(handle, CURLOPT_PROTOCOLS_STR, "http,https")
        curl.set(handle, CURLOPT_FOLLOWLOCATION, 0)
        curl.set(handle, CURLOPT_NOSIGNAL, 1)
        curl.set(handle, CURLOPT_CONNECTTIMEOUT_MS, max(1, Int(min(limits.connectTimeout, timeout) * 1000)))
        if headOnly {
            curl.set(handle, CURLOPT_NOBODY, 1)
            curl.set(handle, CURLOPT_FORBID_REUSE, 1)
        }
        curl.set(handle, CURLOPT_TIMEOUT_MS, max(1, Int(timeout * 1000)))
        curl.set(handle, CURLOPT_MAXFILESIZE_LARGE, offset: Int64(limits.maxBodyBytes))
        curl.set(handle, CURLOPT_ACCEPT_ENCODING, "")
        curl.set(handle, CURLOPT_USERAGENT, "choosy/\(choosyVersion)")
        curl.set(handle, CURLOPT_HTTPHEADER, pointer: headers.map { UnsafeMutableRawPointer($0) })
        curl.set(
            handle, CURLOPT_WRITEFUNCTION,
            callback: { data, size, count, context in
                let transfer = Unmanaged<Transfer>.fromOpaque(context!).takeUnretainedValue()
                return transfer.receive(data, size * count)
            })
        curl.set(handle, CURLOPT_WRITEDATA, pointer: context)
        curl.set(
            handle, CURLOPT_HEADERFUNCTION,
            callback: { data, size, count, context in
                let transfer = Unmanaged<Transfer>.fromOpaque(context!).takeUnretainedValue()
                transfer.header(data, size * count)
                return size * count
            })
        curl.set(handle, CURLOPT_HEADERDATA, pointer: context)
        curl.set(handle, CURLOPT_NOPROGRESS, 0)
        curl.set(
            handle, CURLOPT_XFERINFOFUNCTION,
            progress: { context, total, now, _, _ in
                let transfer = Unmanaged<Transfer>.fromOpaque(context!).takeUnretainedValue()
                return transfer.progress(received: Int64(now), total: Int64(total))
            })
        curl.set(handle, CURLOPT_XFERINFODATA, pointer: context)
        return curl.perform(handle)
    }
}

/// The state of one request: body, validators, size limit, progress line.
private final class Transfer {
    var body: [UInt8] = []
    var etag: String?
    var lastModified: String?
    var tooLarge = false
    private let limit: Int
    private let label: String
    private let showProgress: Bool
    private let started = monotonicSeconds()
    private var progressShown = false

    init(limit: Int, label: String, showProgress: Bool) {
        self.limit = limit
        self.label = label
        self.showProgress = showProgress
    }

    func receive(_ data: UnsafeMutablePointer<CChar>?, _ count: Int) -> Int {
        guard body.count + count <= limit else {
            tooLarge = true
            return 0
        }
        if let data, count > 0 {
            body += UnsafeRawBufferPointer(start: data, count: count)
        }
        return count
    }

    func header(_ data: UnsafeMutablePointer<CChar>?, _ count: Int) {
        guard let data else { return }
        let line = String(decoding: UnsafeRawBufferPointer(start: data, count: count), as: UTF8.self)
        if line.hasPrefix("HTTP/") {
            // A new response (after a 100 Continue, say): forget the previous one's validators.
            etag = nil
            lastModified = nil
            return
        }
        guard let colon = line.firstIndex(of: ":") else { return }
        let name = line[..<colon].lowercased()
        let value = trimmed(line[line.index(after: colon)...])
        if name == "etag" { etag = HTTPValidator.usable(value) }
        if name == "last-modified" { lastModified = HTTPValidator.usable(value) }
    }

    func progress(received: Int64, total: Int64) -> Int32 {
        if received > limit || total > limit {
            tooLarge = true
            return 1
        }
        guard showProgress, monotonicSeconds() - started > 0.5 else { return 0 }
        progressShown = true
        let size = total > 0 ? "\(received / 1024)/\(total / 1024) KiB" : "\(received / 1024) KiB"
        writeStandardError("\rchoosy: downloading \(label)… \(size)\u{1B}[K")
        return 0
    }

    func clearProgress() {
        if progressShown { writeStandardError("\r\u{1B}[K") }
    }
}

/// The libcurl functions choosy uses, resolved once with dlopen/dlsym.
private struct CurlLibrary: @unchecked Sendable {
    private typealias InitFunction = @convention(c) () -> UnsafeMutableRawPointer?
    private typealias HandleFunction = @convention(c) (UnsafeMutableRawPointer?) -> Void
    private typealias PerformFunction = @convention(c) (UnsafeMutableRawPointer?) -> CURLcode
    private typealias StrErrorFunction = @convention(c) (CURLcode) -> UnsafePointer<CChar>?
    private typealias ListAppendFunction = @convention(c) (OpaquePointer?, UnsafePointer<CChar>?) -> OpaquePointer?
    private typealias ListFreeFunction = @convention(c) (OpaquePointer?) -> Void
    private typealias GlobalInitFunction = @convention(c) (Int) -> CURLcode

    private let easyInitFunction: InitFunction
    private let easyCleanupFunction: HandleFunction
    private let easyResetFunction: HandleFunction
    private let performFunction: PerformFunction
    private let strErrorFunction: StrErrorFunction
    private let listAppendFunction: ListAppendFunction
    private let listFreeFunction: ListFreeFunction
    /// Variadic in C, so called through the shims in CCurl.
    private let setopt: UnsafeMutableRawPointer
    private let getinfo: UnsafeMutableRawPointer

    private static let loaded = Result { () throws(SharedLibraryError) in
        let library = try SharedLibrary(
            "libcurl", sonames: ["libcurl.so.4", "libcurl.so"], package: "libcurl4", neededFor: "to download the catalog or unshorten links"
        )
        let globalInit: GlobalInitFunction = try library.function("curl_global_init")
        let curl = CurlLibrary(
            easyInitFunction: try library.function("curl_easy_init"), easyCleanupFunction: try library.function("curl_easy_cleanup"),
            easyResetFunction: try library.function("curl_easy_reset"), performFunction: try library.function("curl_easy_perform"),
            strErrorFunction: try library.function("curl_easy_strerror"), listAppendFunction: try library.function("curl_slist_append"),
            listFreeFunction: try library.function("curl_slist_free_all"), setopt: try library.function("curl_easy_setopt"),
            getinfo: try library.function("curl_easy_getinfo")
        )
        _ = globalInit(Int(CURL_GLOBAL_DEFAULT))
        return curl
    }.mapError { HTTPError($0.description) }

    static func shared() throws(HTTPError) -> CurlLibrary {
        try loaded.get()
    }

    func easyInit() -> UnsafeMutableRawPointer? { easyInitFunction() }
    func easyCleanup(_ handle: UnsafeMutableRawPointer) { easyCleanupFunction(handle) }
    func reset(_ handle: UnsafeMutableRawPointer) { easyResetFunction(handle) }
    func perform(_ handle: UnsafeMutableRawPointer) -> CURLcode { performFunction(handle) }
    func append(_ list: OpaquePointer?, _ line: String) -> OpaquePointer? { listAppendFunction(list, line) }
    func freeList(_ list: OpaquePointer?) { listFreeFunction(list) }

    func errorText(_ code: CURLcode) -> String {
        strErrorFunction(code).map { String(cString: $0) } ?? "libcurl error \(code.rawValue)"
    }

    func set(_ handle: UnsafeMutableRawPointer, _ option: CURLoption, _ value: Int) {
        _ = choosy_curl_setopt_long(setopt, handle, option, value)
    }

    func set(_ handle: UnsafeMutableRawPointer, _ option: CURLoption, offset: Int64) {
        _ = choosy_curl_setopt_offset(setopt, handle, option, curl_off_t(offset))
    }

    func set(_ handle: UnsafeMutableRawPointer, _ option: CURLoption, _ value: String) {
        // libcurl copies string options (since 7.17), so a temporary C string is enough.
        _ = value.withCString { choosy_curl_setopt_string(setopt, handle, option, $0) }
    }

    func set(_ handle: UnsafeMutableRawPointer, _ option: CURLoption, pointer: UnsafeMutableRawPointer?) {
        _ = choosy_curl_setopt_pointer(setopt, handle, option, pointer)
    }

    func set(_ handle: UnsafeMutableRawPointer, _ option: CURLoption, callback: choosy_curl_data_callback) {
        _ = choosy_curl_setopt_data_callback(setopt, handle, option, callback)
    }

    func set(_ handle: UnsafeMutableRawPointer, _ option: CURLoption, progress: choosy_curl_progress_callback) {
        _ = choosy_curl_setopt_progress_callback(setopt, handle, option, progress)
    }

    func responseCode(_ handle: UnsafeMutableRawPointer) -> Int {
        var code = 0
        _ = choosy_curl_getinfo_long(getinfo, handle, CURLINFO_RESPONSE_CODE, &code)
        return code
    }

    func redirectURL(_ handle: UnsafeMutableRawPointer) -> String? {
        var value: UnsafePointer<CChar>?
        _ = choosy_curl_getinfo_string(getinfo, handle, CURLINFO_REDIRECT_URL, &value)
        return value.map { String(cString: $0) }
    }
}
