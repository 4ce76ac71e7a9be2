#include "SignalPipe.h"

#include <errno.h>
#include <pthread.h>
#include <fcntl.h>
#include <signal.h>
#include <string.h>
#include <unistd.h>

static volatile sig_atomic_t write_end = -1;

static void on_signal(int sig) {
    int saved = errno;
    int fd = write_end;
    if (fd >= 0) {
        unsigned char byte = (unsigned char)sig;
        // Non-blocking: if the pipe were ever full, a byte is already waiting to be read.
        ssize_t ignored = write(fd, &byte, 1);
        (void)ignored;
    }
    errno = saved;
}

static int set_flags(int fd) {
    int fl = fcntl(fd, F_GETFL);
    if (fl < 0 || fcntl(fd, F_SETFL, fl | O_NONBLOCK) < 0) return -1;
    int fdf = fcntl(fd, F_GETFD);
    if (fdf < 0 || fcntl(fd, F_SETFD, fdf | FD_CLOEXEC) < 0) return -1;
    return 0;
}

int signal_pipe_install(const int *signals, int count) {
    int fds[2];
    if (pipe(fds) != 0) return -1;
    if (set_flags(fds[0]) != 0 || set_flags(fds[1]) != 0) {
        int saved = errno;
        close(fds[0]);
        close(fds[1]);
        errno = saved;
        return -1;
    }
    write_end = fds[1];
    struct sigaction action;
    memset(&action, 0, sizeof action);
    action.sa_handler = on_signal;
    sigemptyset(&action.sa_mask);
    action.sa_flags = SA_RESTART;
    for (int i = 0; i < count; i++) {
        if (sigaction(signals[i], &action, NULL) != 0) {
            int saved = errno;
            struct sigaction fallback;
            memset(&fallback, 0, sizeof fallback);
            fallback.sa_handler = SIG_DFL;
            sigemptyset(&fallback.sa_mask);
            for (int j = 0; j < i; j++) sigaction(signals[j], &fallback, NULL);
            write_end = -1;
            close(fds[0]);
            close(fds[1]);
            errno = saved;
            return -1;
        }
    }
    // A process may start with these signals blocked (posix_spawn keeps the parent's mask):
    // handled but blocked, they would never arrive.
    sigset_t set;
    sigemptyset(&set);
    for (int i = 0; i < count; i++) sigaddset(&set, signals[i]);
    pthread_sigmask(SIG_UNBLOCK, &set, NULL);
    return fds[0];
}
