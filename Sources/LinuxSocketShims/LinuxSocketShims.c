#define _GNU_SOURCE
#include "LinuxSocketShims.h"

#include <sys/epoll.h>
#include <sys/eventfd.h>
#include <sys/socket.h>

const uint32_t shim_epoll_in = EPOLLIN;
const uint32_t shim_epoll_out = EPOLLOUT;
const uint32_t shim_epoll_err = EPOLLERR;
const uint32_t shim_epoll_hup = EPOLLHUP;

int shim_epoll_create(void) { return epoll_create1(EPOLL_CLOEXEC); }

int shim_epoll_control(int epfd, int op, int fd, uint32_t events, uint64_t token) {
    struct epoll_event event;
    event.events = events;
    event.data.u64 = token;
    return epoll_ctl(epfd, op, fd, &event);
}

int shim_epoll_wait(int epfd, uint32_t *events, uint64_t *tokens, int capacity, int timeout_ms) {
    struct epoll_event ready[256];
    if (capacity > 256) capacity = 256;
    int n = epoll_wait(epfd, ready, capacity, timeout_ms);
    for (int i = 0; i < n; i++) {
        events[i] = ready[i].events;
        tokens[i] = ready[i].data.u64;
    }
    return n;
}

int shim_eventfd_create(void) { return eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC); }

int shim_accept_nonblocking(int fd) { return accept4(fd, 0, 0, SOCK_NONBLOCK | SOCK_CLOEXEC); }
