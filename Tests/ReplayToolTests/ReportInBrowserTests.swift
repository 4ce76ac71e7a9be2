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

    /// What the browser laid out: the page's width, and per chart its bars of non-zero height and
    /// lines of non-zero length (a probe script added to a copy of the page; the page itself has none).
    static func layout(_ page: String, in s: Scratch, width: Int, height: Int) throws -> (png: (Int, Int)?, scrollWidth: Int, charts: [String: (bars: Int, lines: Int)]) {
        let probe = """
        <script>
        const charts = {};
        for (const svg of document.querySelectorAll('svg')) {
          const id = svg.getAttribute('aria-labelledby').split(' ')[0].replace(/-t$/, '');
          const bars = [...svg.querySelectorAll('rect.bar')].filter(r => r.getBoundingClientRect().height > 0).length;
          const lines = [...svg.querySelectorAll('path.line')].filter(p => p.getTotalLength() > 0).length;
          charts[id] = [bars, lines];
        }
        console.log('LAYOUT ' + JSON.stringify({scrollWidth: document.documentElement.scrollWidth, charts}));
        </script></body>
        """
        let html = try String(contentsOfFile: page, encoding: .utf8).replacingOccurrences(of: "</body>", with: probe)
        let probed = page + ".probe.html", png = page + ".png"
        try html.write(toFile: probed, atomically: true, encoding: .utf8)
        let (status, console) = Chromium.screenshot(probed, to: png, width: width, height: height)
        #expect(status == 0)
        guard let line = console.first(where: { $0.contains("LAYOUT ") }), let start = line.range(of: "LAYOUT "),
              let end = line.range(of: "}}", range: start.upperBound..<line.endIndex),
              let json = Tool.json(String(line[start.upperBound..<end.upperBound])) as? [String: Any] else {
            Issue.record("no layout line in the console: \(console)")
            return (Chromium.size(png), .max, [:])
        }
        let charts = (json["charts"] as? [String: [Int]] ?? [:]).mapValues { (bars: $0[0], lines: $0[1]) }
        return (Chromium.size(png), json["scrollWidth"] as? Int ?? .max, charts)
    }

    @Test func theReportAtAWeekAYearAndFiveYearsFitsA1280PixelWindowWithBarsOrLinesInEveryChart() throws {
        let s = Scratch()
        let log = Report.population(s)
        // One account five years before the population's instant: the whole log spans five years.
        let early = s.path + "/early.jsonl"
        try #"{"id":"early","type":"account_created","user":"early","time":"2021-03-03T10:00:00Z","source":"server"}"#.appending("\n").write(toFile: early, atomically: true, encoding: .utf8)
        #expect(Tool.run(["import", "--log", log, early]).status == 0)
        for (span, args, width) in [("a week", ["--from", "-7d"], "week"), ("a year", ["--from", "-365d"], "week"), ("five years", [], "month")] {
            let page = s.path + "/\(span).html"
            let r = Tool.run(["report", "--log", log, "--out", page] + args, now: Report.instant)
            #expect(r.status == 0, "\(span): \(r.err)")
            let html = try String(contentsOfFile: page, encoding: .utf8)
            #expect(html.contains("revenue-\(width)|"), "\(span) is drawn by \(width)")
            let (png, scrollWidth, charts) = try Self.layout(page, in: s, width: 1280, height: 1600)
            #expect(png.map { $0 == (1280, 1600) } == true, "\(span): \(String(describing: png))")
            #expect(scrollWidth <= 1280, "\(span): the page is \(scrollWidth) px wide")
            // Every chart of the page was laid out, each with something drawn.
            #expect(charts.count == html.components(separatedBy: "<svg").count - 1 && charts.count >= 9, "\(span): \(charts.keys.sorted())")
            for (id, marks) in charts { #expect(marks.bars + marks.lines > 0, "\(span): chart \(id) has no bar and no line") }
        }
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
