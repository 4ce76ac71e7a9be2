import Foundation
import Testing
import TestKit
@testable import Platform

/// The build ID of an ELF file (`NT_GNU_BUILD_ID` in a `PT_NOTE` segment): the one `readelf -n`
/// prints for the running test binary, the one of a file made here, and none (never a crash) for a
/// file that is not an ELF file, has no such note, or is cut short.
@Suite struct ExecutableIdentities {
    /// A little-endian 64-bit ELF file with one `PT_NOTE` segment holding `notes`.
    static func elf(notes: [UInt8]) -> [UInt8] {
        var header = [UInt8](repeating: 0, count: 64)
        header[0..<6] = [0x7F, 0x45, 0x4C, 0x46, 2, 1]
        header[32] = 64                       // program headers at 64
        header[54] = 56                       // each 56 bytes
        header[56] = 1                        // one of them
        var program = [UInt8](repeating: 0, count: 56)
        program[0] = 4                        // PT_NOTE
        program[8] = 120                      // at offset 64 + 56
        program[32] = UInt8(notes.count)
        return header + program + notes
    }

    /// One note: name `name` (NUL-terminated, padded), type `type`, description `description` (padded).
    static func note(name: String, type: UInt8, description: [UInt8]) -> [UInt8] {
        let n = Array(name.utf8) + [0]
        func pad(_ b: [UInt8]) -> [UInt8] { b + [UInt8](repeating: 0, count: (4 - b.count % 4) % 4) }
        return [UInt8(n.count), 0, 0, 0, UInt8(description.count), 0, 0, 0, type, 0, 0, 0] + pad(n) + pad(description)
    }

    @Test func theRunningTestBinarysBuildIDIsTheOneReadelfPrints() throws {
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/readelf") else {
            print("skipped: readelf (binutils) is not installed")
            return
        }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/readelf")
        process.arguments = ["-n", "/proc/\(getpid())/exe"]
        let pipe = Pipe()
        process.standardOutput = pipe
        try process.run()
        let output = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        let line = output.split(separator: "\n").first { $0.contains("Build ID:") }
        let expected = line.map { String($0.split(separator: " ").last!) }
        #expect(ExecutableIdentity.buildID().map(hex) == expected)
        #expect(expected != nil, "the test binary has a build ID (the linker's --build-id)")
    }

    @Test func aBuildIDNoteIsFoundAfterAnotherNoteAndOthersAreNot() throws {
        let s = Scratch()
        let id: [UInt8] = [0xDE, 0xAD, 0xBE, 0xEF, 0x01]
        let other = Self.note(name: "GNU", type: 1, description: [0, 0, 0, 0, 3, 0, 0, 0, 2, 0, 0, 0, 0, 0, 0, 0])
        let file = try s.write(Self.elf(notes: other + Self.note(name: "GNU", type: 3, description: id)), to: "a")
        #expect(try ExecutableIdentity.buildID(ofELF: file) == id)
        let noID = try s.write(Self.elf(notes: other + Self.note(name: "XYZ", type: 3, description: id)), to: "b")
        #expect(try ExecutableIdentity.buildID(ofELF: noID) == nil)
    }

    /// Each note's name and description are padded to 4 bytes: the build ID is found after notes
    /// whose name and description are not whole words.
    @Test func aBuildIDNoteIsFoundAfterNotesWhoseNameAndDescriptionArePadded() throws {
        let s = Scratch()
        let id: [UInt8] = [0x5A, 0x01, 0xC3, 0x77]
        for (name, length) in [("Go", 5), ("GNU", 6), ("stapsdt", 1), ("Xen", 7)] {
            let other = Self.note(name: name, type: 4, description: (0..<length).map { UInt8($0 + 1) })
            let file = try s.write(Self.elf(notes: other + Self.note(name: "GNU", type: 3, description: id)), to: "\(name)-\(length)")
            #expect(try ExecutableIdentity.buildID(ofELF: file) == id, "after a note \(name) with \(length) bytes")
        }
    }

    @Test func aFileThatIsNoELFOrIsCutShortHasNoBuildIDAndAMissingOneThrows() throws {
        let s = Scratch()
        let whole = Self.elf(notes: Self.note(name: "GNU", type: 3, description: [1, 2, 3, 4]))
        for length in [0, 4, 63, 64, 100, 119, 124, whole.count - 1] {
            let file = try s.write(Array(whole.prefix(length)), to: "cut-\(length)")
            #expect(try ExecutableIdentity.buildID(ofELF: file) == nil, "cut at \(length)")
        }
        var bigEndian = whole
        bigEndian[5] = 2
        #expect(try ExecutableIdentity.buildID(ofELF: try s.write(bigEndian, to: "be")) == nil)
        #expect(try ExecutableIdentity.buildID(ofELF: try s.write(Array("#!/bin/sh\n".utf8), to: "sh")) == nil)
        #expect(throws: SystemError.self) { try ExecutableIdentity.buildID(ofELF: s.path + "/absent") }
    }
}
