import ChoosyKit
import ChoosyTestSupport
import Testing

@Suite struct SymbolifyTests {
    @Test(arguments: [
        ("some overly-complicated identifier_name 2", "SomeOverlyComplicatedIdentifier_name2"),
        ("Present Login", "PresentLogin"),
        ("push-user-page", "PushUserPage"),
        ("camel-case-sample", "CamelCaseSample"),
        ("2fast 2furious", "2fast2furious"),
        ("_private_segue", "_private_segue"),
        ("snake_case_name", "Snake_case_name"),
        ("ALL CAPS", "ALLCAPS"),
        ("café au lait", "CafAuLait"),
        ("Über Page", "BerPage"),
        ("nai\u{0308}ve", "NaiVe"),
        ("👍 ok", "Ok"),
        ("@connect(someProperty)", "ConnectSomeProperty"),
        ("foo/bar?baz=1", "FooBarBaz1"),
        ("tab\tsep\nnewline", "TabSepNewline"),
        ("---", ""),
        ("", ""),
        ("Twitter Show Profile", "TwitterShowProfile"),
        ("../../etc/passwd", "EtcPasswd"),
    ])
    func symbolifies(identifier: String, symbol: String) {
        #expect(symbolify(identifier) == symbol)
    }
}
