import ChoosyKit
import Foundation
import Glibc

/// Browsers left running, for the tests of what runs and where (doc/running.md): recorder apps
/// that, started by the test with `BROWSER_WINDOW` set to a terminal (`foot` on Wayland,
/// `xterm` on X11), record nothing and stay, a window of that terminal their child, as a
/// browser's main process keeps its windows; started by choosy, they record the run as
/// every recorder does and end.
extension Sandbox {
    /// Installs the browser `id` run as `program %u`; its path. The program's name should be the
    /// test's own (`uniqueProgram`): what runs is found by it, and tests run at once.
    @discardableResult
    package func installRunningBrowser(_ id: String, name: String, program: String, extra: String = "") -> String {
        let prelude = """
            if [ -n "$BROWSER_WINDOW" ]; then
                "$BROWSER_WINDOW" -e sleep 3600 &
                wait
                exit 0
            fi

            """
        let path = recorder(program, prelude: prelude)
        desktopEntry(id, application(name: name, exec: "\(program) %u", extra))
        return path
    }

    /// A program name no other test uses: `base-<random>`.
    package static func uniqueProgram(_ base: String) -> String {
        base + "-" + String(UInt32.random(in: 0...UInt32.max), radix: 36)
    }
}
