// Opens a Twitter/X profile in the user's favourite Twitter app (or, with none installed, in
// the X web app through their favourite browser), as an app would with the iOS Choosy:
//
//     share-profile choosyapp            handle the action
//     share-profile --ask choosyapp      forget the favourite first, so the user is asked
//     share-profile --refresh            download the Twitter and Browser types now
import ChoosyKit
import Glibc

var arguments = Array(CommandLine.arguments.dropFirst())
let choosy = Choosy()

if arguments == ["--refresh"] {
    let failed = choosy.registerAppTypes(["Twitter", "Browser"])
    for (type, reason) in failed.sorted(by: { $0.key < $1.key }) { print("could not refresh \(type): \(reason)") }
    exit(failed.isEmpty ? 0 : 4)
}
let ask = arguments.first == "--ask"
if ask { arguments.removeFirst() }
guard arguments.count == 1 else {
    print("usage: share-profile [--ask] SCREEN_NAME | --refresh")
    exit(2)
}
let action = ChoosyAction(
    appType: "Twitter", action: "show_profile",
    parameters: ["profile_screenname": arguments[0]], pickerTitle: "Open @\(arguments[0]) with…"
)
do {
    let outcome = ask ? try choosy.resetAppSelectionAndHandle(action) : try choosy.handle(action)
    print("opened \(outcome.url ?? "") with \(outcome.app)" + (outcome.browser.map { " in \($0)" } ?? ""))
} catch {
    print("share-profile: \(error.message)")
    exit(error.status.rawValue)
}
