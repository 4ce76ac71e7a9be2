import Foundation
import Testing
import TestKit
import Platform

/// A file named for output is written whole or not at all, and only a regular file (or a new name)
/// is ever replaced: the nodes a rename would destroy are refused, and stay as they were.
@Suite struct OutputFiles {
    @Test func aNewNameAndARegularFileAreWrittenWhole() throws {
        let s = Scratch()
        let path = s.path + "/out.txt"
        try OutputFile.write(Array("first".utf8), to: path)
        #expect(try DurableFile.read(path: path) == Array("first".utf8))
        try OutputFile.write(Array("second, longer".utf8), to: path)
        #expect(try DurableFile.read(path: path) == Array("second, longer".utf8))
        // Nothing but the file is left in the folder: the temporary name was renamed over it.
        #expect(try PlatformDirectory.list(s.path) == ["out.txt"])
    }

    @Test func anOutputNotCommittedLeavesTheOldFileAsItWas() throws {
        let s = Scratch()
        let path = s.path + "/out.txt"
        try OutputFile.write(Array("kept".utf8), to: path)
        do {
            let file = try OutputFile(path: path)
            try file.write(Array("half of a new one".utf8))
            // Never committed.
        }
        #expect(try DurableFile.read(path: path) == Array("kept".utf8))
    }

    @Test func aLinkAFifoAFolderAndADeviceAreRefusedAndLeftAsTheyWere() throws {
        let s = Scratch()
        let target = s.path + "/target"
        try OutputFile.write(Array("target".utf8), to: target)
        let link = s.path + "/link", fifo = s.path + "/fifo", folder = s.path + "/folder", device = s.path + "/device"
        #expect(symlink(target, link) == 0)
        #expect(mkfifo(fifo, 0o600) == 0)
        try PlatformDirectory.create(folder)
        // A character device like /dev/null (1, 3), made in the test's own folder.
        #expect(mknod(device, S_IFCHR | 0o600, dev_t((1 << 8) | 3)) == 0)
        for path in [link, fifo, folder, device] {
            let error = #expect(throws: SystemError.self) { try OutputFile.write(Array("x".utf8), to: path) }
            #expect(error?.code == .unsuitableFile && error?.path == path, "\(path): \(String(describing: error))")
            #expect(error?.description.contains("\n") == false)
        }
        #expect(try DurableFile.read(path: target) == Array("target".utf8), "the link's target is untouched")
        #expect(PlatformPath.kind(link) == .symbolicLink && PlatformPath.kind(fifo) == .fifo)
        #expect(PlatformPath.kind(folder) == .directory && PlatformPath.kind(device) == .characterDevice)
    }

    @Test func aNameInAMissingFolderOrAnEmptyNameIsRefusedNamingIt() throws {
        let s = Scratch()
        let missing = s.path + "/no/such/out.txt"
        let error = #expect(throws: SystemError.self) { try OutputFile.write([1], to: missing) }
        #expect(error?.description == "\(missing): the folder \(s.path)/no/such does not exist")
        #expect(throws: SystemError.self) { try OutputFile.write([1], to: "") }
    }

    @Test func aFailedSystemCallNamesTheCallThePathAndErrno() throws {
        let s = Scratch()
        let error = #expect(throws: SystemError.self) { try PlatformDirectory.list(s.path + "/absent") }
        #expect(error?.code == .failed && error?.errno == ENOENT)
        #expect(error?.description.hasPrefix(s.path + "/absent") == true, "\(String(describing: error))")
    }

    @Test func anAppendThatTruncatesLeavesOnlyTheNewBytesAndOneThatDoesNotAppends() throws {
        let s = Scratch(); let path = s.path + "/out.txt"
        try OutputFile.write(Array("old contents".utf8), to: path)
        try Array("new".utf8).withUnsafeBytes { try OutputFile.append($0, to: path, truncating: true) }
        #expect(try DurableFile.read(path: path) == Array("new".utf8))
        try Array("+more".utf8).withUnsafeBytes { try OutputFile.append($0, to: path, truncating: false) }
        #expect(try DurableFile.read(path: path) == Array("new+more".utf8))
    }

    @Test func aLinkPutUnderTheNameBeforeTheCommitIsRefusedAndItsTargetKept() throws {
        let s = Scratch(); let path = s.path + "/out.txt", target = s.path + "/target"
        try OutputFile.write(Array("target".utf8), to: target)
        let file = try OutputFile(path: path)
        try file.write(Array("x".utf8))
        #expect(symlink(target, path) == 0)
        let error = #expect(throws: SystemError.self) { try file.commit() }
        #expect(error?.code == .unsuitableFile)
        #expect(PlatformPath.kind(path) == .symbolicLink)
        #expect(try DurableFile.read(path: target) == Array("target".utf8))
    }
}
