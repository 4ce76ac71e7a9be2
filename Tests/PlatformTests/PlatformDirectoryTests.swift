import Foundation
import Testing
import TestKit
import Platform

/// Folders: `create` makes the missing parents too; `createChild` makes one folder inside an
/// existing one and never makes a removed parent again (a log's index folder, when the log's own
/// folder was removed while a handle was open).
@Suite struct PlatformDirectories {
    @Test func createMakesEveryMissingParentAndCreateChildOnlyTheLastFolder() throws {
        let s = Scratch()
        try PlatformDirectory.create(s.path + "/a/b/c")
        #expect(try PlatformDirectory.list(s.path + "/a/b") == ["c"])
        try PlatformDirectory.createChild(s.path + "/a/d")
        try PlatformDirectory.createChild(s.path + "/a/d")   // already there: nothing to do
        #expect(try PlatformDirectory.list(s.path + "/a").sorted() == ["b", "d"])
    }

    @Test func createChildUnderAMissingFolderFailsNamingItAndMakesNothing() throws {
        let s = Scratch()
        let gone = s.path + "/removed"
        let error = #expect(throws: SystemError.self) { try PlatformDirectory.createChild(gone + "/indexes") }
        #expect(error?.errno == ENOENT)
        #expect(error?.description.hasPrefix(gone + "/indexes") == true, "\(String(describing: error))")
        #expect(try PlatformDirectory.list(s.path) == [])
    }
}
