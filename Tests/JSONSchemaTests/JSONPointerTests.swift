import Testing

@testable import JSONSchema

@Suite("JSON Pointer")
struct JSONPointerTests {
    @Test func escapesAndUnescapesSpecialCharacters() throws {
        let pointer = try #require(JSONPointer("/a~1b/c~0d/0"))
        #expect(pointer.tokens == ["a/b", "c~d", "0"])
        #expect(pointer.description == "/a~1b/c~0d/0")
        #expect(JSONPointer("no-leading-slash") == nil)
        #expect(JSONPointer("/bad~2escape") == nil)
    }

    @Test func resolvesIntoDocuments() throws {
        let document: JSONValue = ["options": [["id": "a"], ["id": "b"]]]
        #expect(JSONPointer("/options/1/id")?.resolve(in: document) == "b")
        #expect(JSONPointer("/options/2")?.resolve(in: document) == nil)
        #expect(JSONPointer("")?.resolve(in: document) == document)
    }

    @Test(arguments: [
        ("", "(root)"),
        ("/options/2/summary", "options[2].summary"),
        ("/weird key/x", "[\"weird key\"].x"),
    ])
    func readsAsADottedPath(pointer: String, dotted: String) throws {
        #expect(try #require(JSONPointer(pointer)).dottedPath == dotted)
    }

    @Test func sortsArrayIndicesNumerically() throws {
        let pointers = ["/a/10", "/a/9", "/a/b"].compactMap(JSONPointer.init)
        #expect(pointers.sorted().map(\.description) == ["/a/9", "/a/10", "/a/b"])
    }
}
