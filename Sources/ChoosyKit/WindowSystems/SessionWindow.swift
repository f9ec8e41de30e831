/// A window of the session, as its window system reports it (doc/running.md).
package struct SessionWindow: Equatable, Sendable {
    /// What the window system knows it by, to focus it: sway's and i3's container ID,
    /// Hyprland's address, niri's window ID, an X window's ID.
    package var id: String
    /// The process that made it, when the window system knows.
    package var pid: Int32?
    /// On the workspace the user is looking at: the focused one.
    package var onCurrentWorkspace: Bool
}

/// A window system that says which windows there are and where, and focuses one.
package protocol WindowSystem {
    /// What `-v` calls it: `sway`, `i3`, `Hyprland`, `niri`, `KWin`, `the X11 window manager`.
    var name: String { get }
    /// Every window, each asked of the compositor by `deadline`.
    func windows(before deadline: Deadline) throws(WindowSystemError) -> [SessionWindow]
    /// Gives `window` the focus, by `deadline`.
    func focus(_ window: SessionWindow, before deadline: Deadline) throws(WindowSystemError)
}

/// Why a window system could not be asked, for the one line `-v` says.
package struct WindowSystemError: Error, Equatable, Sendable, CustomStringConvertible {
    package var description: String

    package init(_ description: String) {
        self.description = description
    }

    init(_ error: LocalSocketError) {
        description = error.description
    }

    init(_ error: X11Error) {
        description = error.description
    }

    init(_ error: JSONError) {
        description = "answered what is no reply of its (\(error))"
    }

    /// `body`'s result, any error of a socket, an X server or a reply's JSON made the one
    /// reason `-v` gives.
    static func asking<Result>(_ body: () throws -> Result) throws(WindowSystemError) -> Result {
        do {
            return try body()
        } catch let error as WindowSystemError {
            throw error
        } catch let error as LocalSocketError {
            throw WindowSystemError(error)
        } catch let error as X11Error {
            throw WindowSystemError(error)
        } catch let error as JSONError {
            throw WindowSystemError(error)
        } catch {
            throw WindowSystemError("\(error)")
        }
    }
}
