import Foundation
import Testing
import TestKit

/// Headless Chromium (the Debian package `chromium`; `.ci/run` installs it when missing).
enum Chromium {
    static let path: String? = ["/usr/bin/chromium", "/usr/bin/chromium-browser", "/usr/bin/google-chrome"].first { FileManager.default.isExecutableFile(atPath: $0) }

    /// Renders `page` to a PNG of `width` × `height`; returns the console messages the page logged.
    static func screenshot(_ page: String, to png: String, width: Int, height: Int) -> (status: Int32, console: [String]) {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: path!)
        // We run as root in CI: Chromium's sandbox needs a user namespace it may not get.
        p.arguments = ["--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars", "--no-first-run",
                       "--user-data-dir=" + (png + ".profile"), "--screenshot=" + png, "--window-size=\(width),\(height)",
                       "--enable-logging=stderr", "--v=0", URL(fileURLWithPath: page).absoluteString]
        let err = Pipe()
        p.standardError = err
        p.standardOutput = FileHandle.nullDevice
        try! p.run()
        let text = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        p.waitUntilExit()
        return (p.terminationStatus, text.split(separator: "\n").map(String.init).filter { $0.contains(":CONSOLE") })
    }

    /// The width and height in a PNG's header (IHDR), or nil if it is not a PNG.
    static func size(_ png: String) -> (Int, Int)? {
        guard let d = FileManager.default.contents(atPath: png), d.count > 24, Array(d.prefix(8)) == [137, 80, 78, 71, 13, 10, 26, 10] else { return nil }
        let b = Array(d)
        func be(_ i: Int) -> Int { Int(b[i]) << 24 | Int(b[i + 1]) << 16 | Int(b[i + 2]) << 8 | Int(b[i + 3]) }
        return (be(16), be(20))
    }
}

/// The report as people see it: rendered by a real browser to an image.
@Suite(.enabled(if: Chromium.path != nil, "chromium is not installed (apt-get install chromium): the report is not rendered in a browser"))
struct ReportInBrowser {
    @Test func theReportRendersToANonBlankImageWithoutConsoleErrors() throws {
        let s = Scratch()
        let log = Report.population(s)
        let page = s.path + "/report.html"
        #expect(Tool.run(["report", "--log", log, "--at", Report.instant, "--out", page]).status == 0)
        let png = s.path + "/report.png"
        let (status, console) = Chromium.screenshot(page, to: png, width: 1200, height: 3000)
        #expect(status == 0)
        #expect(console.isEmpty, "\(console)")
        let size = Chromium.size(png)
        #expect(size.map { $0 == (1200, 3000) } == true, "\(String(describing: size))")
        // Non-blank: a blank page of the same size compresses to a few kilobytes; charts do not.
        let blankPage = s.path + "/blank.html", blankPNG = s.path + "/blank.png"
        try "<!DOCTYPE html><html><body></body></html>".write(toFile: blankPage, atomically: true, encoding: .utf8)
        #expect(Chromium.screenshot(blankPage, to: blankPNG, width: 1200, height: 3000).status == 0)
        let bytes = { (p: String) in (try? FileManager.default.attributesOfItem(atPath: p)[.size] as? Int) ?? 0 }
        #expect(bytes(png) > 10 * max(bytes(blankPNG), 1), "report \(bytes(png)) bytes, blank page \(bytes(blankPNG)) bytes")
    }

    @Test func aConsoleErrorWouldBeSeen() throws {
        // The check above can fail: a page that logs to the console is caught.
        let s = Scratch()
        let page = s.path + "/noisy.html"
        try "<!DOCTYPE html><html><body><script>console.error('broken chart')</script></body></html>".write(toFile: page, atomically: true, encoding: .utf8)
        let (_, console) = Chromium.screenshot(page, to: s.path + "/noisy.png", width: 400, height: 300)
        #expect(console.contains { $0.contains("broken chart") })
    }
}
