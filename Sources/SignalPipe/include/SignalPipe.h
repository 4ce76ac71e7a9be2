// A self-pipe for signals: the handler is C because a signal handler may only make
// async-signal-safe calls (write(2) here), which Swift code cannot promise. EventStore's
// Platform.swift wraps it; nothing else calls it.
#ifndef SIGNAL_PIPE_H
#define SIGNAL_PIPE_H

/// Makes a pipe (both ends close-on-exec and non-blocking) and installs, for each of the
/// `count` signals in `signals`, a handler that writes the signal's number as one byte to
/// it (saving and restoring errno, nothing else). Returns the read end, or -1 with errno set
/// (nothing is installed then). The signals are also unblocked in the calling thread (a process
/// may inherit them blocked). Meant to be called once per process; a second call replaces
/// the handlers and the pipe they write to.
int signal_pipe_install(const int *signals, int count);

#endif
