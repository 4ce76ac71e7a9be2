import Foundation
import Testing
import TestKit
@testable import EventStore

/// A handle whose log folder was removed while it was open does not make the folder again when it
/// writes out its indexes: the index folder is made inside the log's folder only.
@Suite struct RemovedLogFolders {
    @Test func savingIndexesAfterTheLogsFolderWasRemovedFailsNamingTheIndexFolderAndMakesNothing() throws {
        let s = Scratch()
        let path = s.path + "/ledger"
        let log = try EventLog(directory: path)
        try log.append(proposed(5))
        try FileManager.default.removeItem(atPath: path)
        let error = #expect(throws: (any Error).self) { try log.saveIndexes() }
        #expect("\(String(describing: error))".contains(path + "/"), "\(String(describing: error))")
        #expect(!FileManager.default.fileExists(atPath: path), "the removed log folder was made again")
    }
}
