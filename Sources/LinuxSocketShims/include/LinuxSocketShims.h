// The Linux calls Swift's Glibc module does not reach: epoll (its event struct is packed, so it
// never crosses into Swift), eventfd, and accept4 (declared only under _GNU_SOURCE).
// HTTPServer's Sockets.swift wraps these; nothing else calls them.
#ifndef LINUX_SOCKET_SHIMS_H
#define LINUX_SOCKET_SHIMS_H

#include <stdint.h>

/// epoll_create1(EPOLL_CLOEXEC). Returns the descriptor or -1 with errno set.
int shim_epoll_create(void);

/// epoll_ctl with `op` 1 (add), 2 (delete) or 3 (modify); `events` uses the EPOLL* bits below;
/// `token` comes back with each event. Returns 0 or -1 with errno set.
int shim_epoll_control(int epfd, int op, int fd, uint32_t events, uint64_t token);

/// epoll_wait into two parallel arrays of `capacity` entries. Returns the count or -1 with errno set.
int shim_epoll_wait(int epfd, uint32_t *events, uint64_t *tokens, int capacity, int timeout_ms);

/// eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC). Returns the descriptor or -1 with errno set.
int shim_eventfd_create(void);

/// accept4(fd, NULL, NULL, SOCK_NONBLOCK | SOCK_CLOEXEC). Returns the descriptor or -1 with errno set.
int shim_accept_nonblocking(int fd);

/// The epoll event bits, as plain constants.
extern const uint32_t shim_epoll_in;
extern const uint32_t shim_epoll_out;
extern const uint32_t shim_epoll_err;
extern const uint32_t shim_epoll_hup;

#endif
