#if canImport(Glibc)
import Glibc
#endif
import LinuxSocketShims

/// What one non-blocking read found.
public enum SocketReadResult: Sendable, Equatable {
    /// This many bytes were read (at least one).
    case bytes(Int)
    /// The peer closed its side: no more bytes will come.
    case endOfStream
    /// Nothing to read right now (non-blocking socket), or a receive timeout ran out.
    case wouldBlock
}

/// The only place that makes socket system calls: thin wrappers, each retried on EINTR, each
/// failure a `SocketError` naming the call and errno. Descriptors are plain `Int32`s; the caller
/// owns them and closes them with `close(_:)`.
public enum SocketCalls {
    // MARK: Listening and accepting

    /// socket + SO_REUSEADDR + bind + listen: a non-blocking, close-on-exec listening socket.
    public static func listen(on address: SocketAddress, backlog: Int32) throws(SocketError) -> Int32 {
        let family = address.host.contains(":") ? AF_INET6 : AF_INET
        let fd = try socket(family: family)
        do throws(SocketError) {
            var one: Int32 = 1
            if setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, socklen_t(MemoryLayout<Int32>.size)) != 0 {
                throw SocketError(call: "setsockopt(SO_REUSEADDR)", errno: errno, subject: address.description)
            }
            try withSocketAddress(address) { (pointer, length) throws(SocketError) in
                if Glibc.bind(fd, pointer, length) != 0 { throw SocketError(call: "bind", errno: errno, subject: address.description) }
            }
            if Glibc.listen(fd, backlog) != 0 { throw SocketError(call: "listen", errno: errno, subject: address.description) }
            try setNonBlocking(fd)
        } catch {
            close(fd)
            throw error
        }
        return fd
    }

    /// The address a socket is bound to (getsockname): the real port after binding port 0.
    public static func localAddress(of fd: Int32) throws(SocketError) -> SocketAddress {
        var storage = sockaddr_storage()
        var length = socklen_t(MemoryLayout<sockaddr_storage>.size)
        let result = withUnsafeMutablePointer(to: &storage) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
        }
        if result != 0 { throw SocketError(call: "getsockname", errno: errno) }
        return try decode(storage)
    }

    /// accept4 with SOCK_NONBLOCK | SOCK_CLOEXEC. Nil when no connection is waiting; a connection
    /// that was aborted before it was taken is skipped.
    public static func accept(_ listener: Int32) throws(SocketError) -> Int32? {
        while true {
            let fd = shim_accept_nonblocking(listener)
            if fd >= 0 { return fd }
            switch errno {
            case EINTR, ECONNABORTED: continue
            case EAGAIN, EWOULDBLOCK: return nil
            default: throw SocketError(call: "accept4", errno: errno)
            }
        }
    }

    /// TCP_NODELAY: small responses leave at once instead of waiting for an acknowledgement.
    public static func setNoDelay(_ fd: Int32) throws(SocketError) {
        var one: Int32 = 1
        if setsockopt(fd, Int32(IPPROTO_TCP), TCP_NODELAY, &one, socklen_t(MemoryLayout<Int32>.size)) != 0 {
            throw SocketError(call: "setsockopt(TCP_NODELAY)", errno: errno)
        }
    }

    // MARK: Connecting (clients: tests and benchmarks)

    /// A blocking, close-on-exec TCP connection to `address`.
    public static func connect(to address: SocketAddress) throws(SocketError) -> Int32 {
        let fd = try socket(family: address.host.contains(":") ? AF_INET6 : AF_INET)
        do throws(SocketError) {
            try withSocketAddress(address) { (pointer, length) throws(SocketError) in
                if Glibc.connect(fd, pointer, length) == 0 { return }
                guard errno == EINTR else { throw SocketError(call: "connect", errno: errno, subject: address.description) }
                // Interrupted: the connection goes on in the background; wait for it and read its outcome.
                var entry = pollfd(fd: fd, events: Int16(POLLOUT), revents: 0)
                while Glibc.poll(&entry, 1, -1) < 0 {
                    if errno != EINTR { throw SocketError(call: "poll", errno: errno, subject: address.description) }
                }
                var pending: Int32 = 0
                var size = socklen_t(MemoryLayout<Int32>.size)
                if getsockopt(fd, SOL_SOCKET, SO_ERROR, &pending, &size) != 0 {
                    throw SocketError(call: "getsockopt(SO_ERROR)", errno: errno, subject: address.description)
                }
                if pending != 0 { throw SocketError(call: "connect", errno: pending, subject: address.description) }
            }
        } catch {
            close(fd)
            throw error
        }
        return fd
    }

    /// SO_RCVTIMEO: a blocking read gives up (`.wouldBlock`) after `seconds`.
    public static func setReceiveTimeout(_ fd: Int32, seconds: Double) throws(SocketError) {
        var time = timeval(tv_sec: Int(seconds), tv_usec: Int((seconds - Double(Int(seconds))) * 1_000_000))
        if setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &time, socklen_t(MemoryLayout<timeval>.size)) != 0 {
            throw SocketError(call: "setsockopt(SO_RCVTIMEO)", errno: errno)
        }
    }

    /// SO_SNDTIMEO: a blocking write gives up after `seconds`.
    public static func setSendTimeout(_ fd: Int32, seconds: Double) throws(SocketError) {
        var time = timeval(tv_sec: Int(seconds), tv_usec: Int((seconds - Double(Int(seconds))) * 1_000_000))
        if setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &time, socklen_t(MemoryLayout<timeval>.size)) != 0 {
            throw SocketError(call: "setsockopt(SO_SNDTIMEO)", errno: errno)
        }
    }

    // MARK: Reading and writing

    /// One read into `buffer[0 ..< count]` (count clamped to the buffer's size).
    public static func read(_ fd: Int32, into buffer: inout [UInt8], count: Int) throws(SocketError) -> SocketReadResult {
        let wanted = max(0, min(count, buffer.count))
        while true {
            let n = buffer.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, wanted) }
            if n > 0 { return .bytes(n) }
            if n == 0 { return wanted == 0 ? .wouldBlock : .endOfStream }
            switch errno {
            case EINTR: continue
            case EAGAIN, EWOULDBLOCK: return .wouldBlock
            default: throw SocketError(call: "read", errno: errno)
            }
        }
    }

    /// One send of `bytes[offset...]` with MSG_NOSIGNAL (a closed peer is an error, not SIGPIPE).
    /// Returns how many bytes went, or nil when the socket's buffer is full.
    public static func write(_ fd: Int32, _ bytes: [UInt8], from offset: Int) throws(SocketError) -> Int? {
        let start = max(0, min(offset, bytes.count))
        while true {
            let n = bytes.withUnsafeBytes { all in
                send(fd, all.baseAddress.map { $0 + start }, all.count - start, Int32(MSG_NOSIGNAL))
            }
            if n >= 0 { return n }
            switch errno {
            case EINTR: continue
            case EAGAIN, EWOULDBLOCK: return nil
            default: throw SocketError(call: "send", errno: errno)
            }
        }
    }

    /// Sends all of `bytes` on a blocking socket, looping over short writes.
    public static func writeAll(_ fd: Int32, _ bytes: [UInt8]) throws(SocketError) {
        var done = 0
        while done < bytes.count {
            guard let n = try write(fd, bytes, from: done) else { throw SocketError(call: "send", errno: EAGAIN) }
            done += n
        }
    }

    /// shutdown(SHUT_WR): the peer reads end of stream after what was sent; reading goes on.
    public static func shutdownWrite(_ fd: Int32) {
        _ = Glibc.shutdown(fd, Int32(SHUT_WR))
    }

    /// close(2). Not retried on EINTR: on Linux the descriptor is released even then.
    public static func close(_ fd: Int32) {
        _ = Glibc.close(fd)
    }

    // MARK: Event poll and wake-ups

    /// epoll_create1(EPOLL_CLOEXEC).
    public static func makeEventPoll() throws(SocketError) -> Int32 {
        let fd = shim_epoll_create()
        if fd < 0 { throw SocketError(call: "epoll_create1", errno: errno) }
        return fd
    }

    /// Registers `fd` (level-triggered) for `interest`; its events carry `token`.
    public static func add(_ fd: Int32, to poll: Int32, interest: PollInterest, token: UInt64) throws(SocketError) {
        try control(poll, op: 1, fd: fd, interest: interest, token: token, call: "epoll_ctl(ADD)")
    }

    /// Changes what a registered `fd` is waited on for.
    public static func modify(_ fd: Int32, in poll: Int32, interest: PollInterest, token: UInt64) throws(SocketError) {
        try control(poll, op: 3, fd: fd, interest: interest, token: token, call: "epoll_ctl(MOD)")
    }

    /// Unregisters `fd` (closing a descriptor also unregisters it).
    public static func remove(_ fd: Int32, from poll: Int32) {
        _ = shim_epoll_control(poll, 2, fd, 0, 0)
    }

    /// Waits up to `timeoutMilliseconds` (-1: no limit) and fills `events` from the front; returns
    /// how many are ready (0 on timeout or interruption).
    public static func wait(poll: Int32, into events: inout [PollEvent], timeoutMilliseconds: Int32) throws(SocketError) -> Int {
        let capacity = min(events.count, 256)
        var bits = [UInt32](repeating: 0, count: capacity)
        var tokens = [UInt64](repeating: 0, count: capacity)
        let n = shim_epoll_wait(poll, &bits, &tokens, Int32(capacity), timeoutMilliseconds)
        if n < 0 {
            if errno == EINTR { return 0 }
            throw SocketError(call: "epoll_wait", errno: errno)
        }
        for i in 0..<Int(n) {
            events[i] = PollEvent(token: tokens[i],
                                  readable: bits[i] & (shim_epoll_in | shim_epoll_hup) != 0,
                                  writable: bits[i] & shim_epoll_out != 0,
                                  failed: bits[i] & shim_epoll_err != 0)
        }
        return Int(n)
    }

    /// An eventfd (non-blocking, close-on-exec) that other threads signal to wake an event poll.
    public static func makeWakeup() throws(SocketError) -> Int32 {
        let fd = shim_eventfd_create()
        if fd < 0 { throw SocketError(call: "eventfd", errno: errno) }
        return fd
    }

    /// Makes a wake-up descriptor readable. Safe from any thread; never blocks.
    public static func signal(wakeup fd: Int32) {
        var one: UInt64 = 1
        while Glibc.write(fd, &one, 8) < 0 && errno == EINTR {}
    }

    /// Makes a wake-up descriptor unreadable again.
    public static func drain(wakeup fd: Int32) {
        var count: UInt64 = 0
        while Glibc.read(fd, &count, 8) < 0 && errno == EINTR {}
    }

    // MARK: Private

    private static func socket(family: Int32) throws(SocketError) -> Int32 {
        let fd = Glibc.socket(family, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        if fd < 0 { throw SocketError(call: "socket", errno: errno) }
        return fd
    }

    private static func setNonBlocking(_ fd: Int32) throws(SocketError) {
        let flags = fcntl(fd, F_GETFL)
        if flags < 0 || fcntl(fd, F_SETFL, flags | O_NONBLOCK) != 0 { throw SocketError(call: "fcntl(O_NONBLOCK)", errno: errno) }
    }

    private static func control(_ poll: Int32, op: Int32, fd: Int32, interest: PollInterest, token: UInt64, call: String) throws(SocketError) {
        var bits: UInt32 = 0
        if interest.contains(.readable) { bits |= shim_epoll_in }
        if interest.contains(.writable) { bits |= shim_epoll_out }
        if shim_epoll_control(poll, op, fd, bits, token) != 0 { throw SocketError(call: call, errno: errno) }
    }

    /// Calls `body` with a sockaddr for `address` and its length.
    private static func withSocketAddress(_ address: SocketAddress,
                                          _ body: (UnsafePointer<sockaddr>, socklen_t) throws(SocketError) -> Void) throws(SocketError) {
        if address.host.contains(":") {
            var raw = sockaddr_in6()
            raw.sin6_family = sa_family_t(AF_INET6)
            raw.sin6_port = address.port.bigEndian
            guard inet_pton(AF_INET6, address.host, &raw.sin6_addr) == 1 else {
                throw SocketError(call: "inet_pton", errno: EINVAL, subject: address.host)
            }
            let length = socklen_t(MemoryLayout<sockaddr_in6>.size)
            try withUnsafePointer(to: &raw) { (pointer) throws(SocketError) in
                try pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { (cast) throws(SocketError) in try body(cast, length) }
            }
        } else {
            var raw = sockaddr_in()
            raw.sin_family = sa_family_t(AF_INET)
            raw.sin_port = address.port.bigEndian
            guard inet_pton(AF_INET, address.host, &raw.sin_addr) == 1 else {
                throw SocketError(call: "inet_pton", errno: EINVAL, subject: address.host)
            }
            let length = socklen_t(MemoryLayout<sockaddr_in>.size)
            try withUnsafePointer(to: &raw) { (pointer) throws(SocketError) in
                try pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { (cast) throws(SocketError) in try body(cast, length) }
            }
        }
    }

    private static func decode(_ storage: sockaddr_storage) throws(SocketError) -> SocketAddress {
        var storage = storage
        var text = [CChar](repeating: 0, count: Int(INET6_ADDRSTRLEN) + 1)
        switch Int32(storage.ss_family) {
        case AF_INET:
            let (port, ok) = withUnsafePointer(to: &storage) {
                $0.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { address in
                    var bits = address.pointee.sin_addr
                    return (UInt16(bigEndian: address.pointee.sin_port), inet_ntop(AF_INET, &bits, &text, socklen_t(text.count)) != nil)
                }
            }
            guard ok else { throw SocketError(call: "inet_ntop", errno: errno) }
            return SocketAddress(host: String(decoding: text.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self), port: port)
        case AF_INET6:
            let (port, ok) = withUnsafePointer(to: &storage) {
                $0.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) { address in
                    var bits = address.pointee.sin6_addr
                    return (UInt16(bigEndian: address.pointee.sin6_port), inet_ntop(AF_INET6, &bits, &text, socklen_t(text.count)) != nil)
                }
            }
            guard ok else { throw SocketError(call: "inet_ntop", errno: errno) }
            return SocketAddress(host: String(decoding: text.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self), port: port)
        default:
            throw SocketError(call: "getsockname", errno: EAFNOSUPPORT)
        }
    }
}
