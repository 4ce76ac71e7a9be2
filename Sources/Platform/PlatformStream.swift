#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import SignalPipe

/// What a streaming reader waits on: its input, the signals that stop it, and the clock.
public enum PlatformStream {
    /// What `wait` saw first.
    public enum Ready: Equatable, Sendable {
        /// The input can be read without blocking: bytes, its end, or an error the read reports.
        case input
        /// A stop signal arrived (see `StopSignals`).
        case stop
        /// The time given passed with neither.
        case timeout
    }

    /// SIGTERM and SIGINT turned into a readable descriptor. The handler is C (the SignalPipe
    /// target): it only write(2)s the signal's number to a non-blocking self-pipe, saving errno,
    /// which is async-signal-safe; everything else happens when the reader polls the pipe.
    public struct StopSignals: Sendable {
        /// The pipe's read end (non-blocking, close-on-exec).
        public let descriptor: Int32

        /// Installs the handlers, once per process (the previous handlers are replaced).
        public static func install(_ signals: [Int32] = [SIGTERM, SIGINT]) throws -> StopSignals {
            let fd = signals.withUnsafeBufferPointer { signal_pipe_install($0.baseAddress, Int32($0.count)) }
            guard fd >= 0 else { throw SystemError.call("sigaction", path: "(signal handlers)", offset: nil, errno: errno) }
            return StopSignals(descriptor: fd)
        }

        /// The first signal that arrived and is not yet taken, if any (reads without blocking).
        public func take() -> Int32? {
            var byte: UInt8 = 0
            while true {
                let n = read(descriptor, &byte, 1)
                if n == 1 { return Int32(byte) }
                if n < 0 && errno == EINTR { continue }
                return nil
            }
        }

        /// The usual name of a stop signal (`SIGTERM`).
        public static func name(_ signal: Int32) -> String {
            switch signal {
            case SIGTERM: "SIGTERM"
            case SIGINT: "SIGINT"
            default: "signal \(signal)"
            }
        }
    }

    /// Waits until `input` is readable, `stop` is readable, or `timeoutMilliseconds` passed (a
    /// negative timeout waits without limit). A stop wins over input that is ready at the same
    /// time. An interrupted poll (EINTR) is restarted with the time left. `path` names the input
    /// in errors (`-` for standard input); an input that is not open is an error.
    public static func wait(input: Int32, stop: Int32?, timeoutMilliseconds: Int, path: String) throws -> Ready {
        let deadline = timeoutMilliseconds < 0 ? nil : monotonicNanoseconds() + UInt64(timeoutMilliseconds) * 1_000_000
        var fds = [pollfd(fd: input, events: Int16(POLLIN), revents: 0)]
        if let stop { fds.append(pollfd(fd: stop, events: Int16(POLLIN), revents: 0)) }
        while true {
            var timeout: Int32 = -1
            if let deadline {
                let now = monotonicNanoseconds()
                timeout = now >= deadline ? 0 : Int32(clamping: (deadline - now + 999_999) / 1_000_000)
            }
            for k in fds.indices { fds[k].revents = 0 }
            let n = fds.withUnsafeMutableBufferPointer { poll($0.baseAddress, nfds_t($0.count), timeout) }
            if n < 0 {
                if errno == EINTR { continue }
                throw SystemError.call("poll", path: path, offset: nil, errno: errno)
            }
            if fds.count > 1 && fds[1].revents != 0 { return .stop }
            let got = fds[0].revents
            if got & Int16(POLLNVAL) != 0 {
                throw SystemError.call("poll", path: path, offset: nil, errno: EBADF)
            }
            // POLLHUP (the writer closed) and POLLERR: a read tells which (0 bytes, or its errno).
            if got != 0 { return .input }
            if n == 0 { return .timeout }
        }
    }

    /// A clock that only goes forward (CLOCK_MONOTONIC), in nanoseconds, to time waits.
    public static func monotonicNanoseconds() -> UInt64 { MonotonicClock.now() }
}
